import type { ExchangeRateImport } from '@back-office/contract/exchange-rates';
import { EXCHANGE_RATES_MAX_FILE_BYTES } from '@back-office/contract/exchange-rates';
import { Alert, Anchor, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { useImportEcbRates } from '../api/import-ecb-rates.ts';
import { importResultText } from '../exchange-rate-format.ts';

/** The ECB's page of the euro foreign exchange reference rates, with the history to download. */
const ECB_RATES_PAGE =
  'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html';
const MEGABYTES = EXCHANGE_RATES_MAX_FILE_BYTES / 1024 / 1024;

/** Why the server would refuse `file` by its name or size (it checks again, and reads it), or null. */
function fileProblem(file: File | null): string | null {
  if (!file) return 'Choose the ECB file eurofxref-hist.csv.';
  const name = file.name.toLowerCase();
  if (name.endsWith('.zip'))
    return 'Open the ZIP archive first, and choose the eurofxref-hist.csv file it holds.';
  if (!name.endsWith('.csv')) return 'The file must be the CSV file of the ECB (eurofxref-hist.csv).';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > EXCHANGE_RATES_MAX_FILE_BYTES) return `The file is larger than ${MEGABYTES} MB.`;
  return null;
}

/**
 * Imports the ECB's history of reference rates (Administrators): the file `eurofxref-hist.csv` from
 * the ZIP archive the ECB publishes. Says how many rates were imported and how many skipped (already
 * stored, kept as they were); a file the server refuses is explained by its own sentence.
 */
export function EcbImportForm() {
  const importRates = useImportEcbRates();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [result, setResult] = useState<ExchangeRateImport | null>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRefusal(null);
    setResult(null);
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file) return;
    try {
      setResult(await importRates.mutateAsync(file));
      setFile(null);
    } catch (error) {
      setRefusal(
        error instanceof ApiError && error.detail && error.status < 500
          ? error.detail
          : 'The server could not take the file. Please try again or contact your system administrator.',
      );
    }
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Import the ECB file">
      <Stack gap="md">
        <Text size="sm">
          Download the history of the euro reference rates (a ZIP archive) from the{' '}
          <Anchor href={ECB_RATES_PAGE} target="_blank" rel="noreferrer">
            European Central Bank
          </Anchor>
          , open it and choose the eurofxref-hist.csv file it holds. Rates already stored are kept.
        </Text>
        <FileInput
          label="ECB file"
          placeholder="Choose eurofxref-hist.csv"
          accept=".csv"
          value={file}
          onChange={(chosen) => {
            setFile(chosen);
            setFileError(null);
          }}
          error={fileError}
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the file' }}
          // The hidden file input the button opens, named for tests and assistive tools that reach it.
          fileInputProps={{ 'aria-label': 'ECB rates file' }}
          withAsterisk
        />
        {refusal ? (
          <Alert color="red" variant="light" title="The file was not imported">
            <Text size="sm">{refusal}</Text>
          </Alert>
        ) : null}
        {result ? (
          <Alert color="green" variant="light" title="Import done" role="status">
            <Text size="sm">{importResultText(result)}.</Text>
          </Alert>
        ) : null}
        <Group>
          <Button
            type="submit"
            loading={importRates.isPending}
            leftSection={<IconUpload size={16} aria-hidden />}
          >
            Import
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
