import { EXCHANGE_RATES_MAX_FILE_BYTES } from '@back-office/contract/exchange-rates';
import { Alert, Anchor, Text } from '@mantine/core';
import { BankFileUploadForm, bankFileProblem } from '../../../components/bank-file-upload-form.tsx';
import { useImportEcbRates } from '../api/import-ecb-rates.ts';
import { importResultText } from '../exchange-rate-format.ts';

/** The ECB's page of the euro foreign exchange reference rates, with the history to download. */
const ECB_RATES_PAGE =
  'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html';

/** Why the server would refuse `file` by its name or size (it checks again, and reads it), or null. */
function fileProblem(file: File | null): string | null {
  if (file?.name.toLowerCase().endsWith('.zip'))
    return 'Open the ZIP archive first, and choose the eurofxref-hist.csv file it holds.';
  return bankFileProblem(file, {
    extensions: ['.csv'],
    maxBytes: EXCHANGE_RATES_MAX_FILE_BYTES,
    missing: 'Choose the ECB file eurofxref-hist.csv.',
    wrongType: 'The file must be the CSV file of the ECB (eurofxref-hist.csv).',
  });
}

/**
 * Imports the ECB's history of reference rates (Administrators; docs/decisions/021): the file
 * `eurofxref-hist.csv` from the ZIP archive the ECB publishes. Says how many rates were imported and
 * how many skipped (already stored, kept as they were); a file the server refuses is explained by its
 * own sentence.
 */
export function EcbImportForm() {
  const importRates = useImportEcbRates();
  return (
    <BankFileUploadForm
      formLabel="Import the ECB file"
      intro={
        <>
          Download the history of the euro reference rates (a ZIP archive) from the{' '}
          <Anchor href={ECB_RATES_PAGE} target="_blank" rel="noreferrer">
            European Central Bank
          </Anchor>
          , open it and choose the eurofxref-hist.csv file it holds. Rates already stored are kept.
        </>
      }
      fieldLabel="ECB file"
      placeholder="Choose eurofxref-hist.csv"
      inputLabel="ECB rates file"
      accept=".csv"
      fileProblem={fileProblem}
      upload={(file) => importRates.mutateAsync(file)}
      pending={importRates.isPending}
      renderResult={(result) => (
        <Alert color="green" variant="light" title="Import done" role="status">
          <Text size="sm">{importResultText(result)}.</Text>
        </Alert>
      )}
    />
  );
}
