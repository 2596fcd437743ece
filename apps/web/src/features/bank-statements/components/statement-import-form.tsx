import { BANK_STATEMENT_MAX_FILE_BYTES } from '@back-office/contract/bank-statements';
import { BankFileUploadForm, bankFileProblem } from '../../../components/bank-file-upload-form.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useImportBankStatement } from '../api/import-bank-statement.ts';
import { importSummaryText } from '../bank-statement-format.ts';
import { StatementImportResult } from './statement-import-result.tsx';

/** Why the server would refuse a statement file by its name or size, or null. */
const statementFileProblem = (file: File | null) =>
  bankFileProblem(file, {
    extensions: ['.xml', '.zip'],
    maxBytes: BANK_STATEMENT_MAX_FILE_BYTES,
    missing: 'Choose the statement file (camt.053 or camt.054, or a ZIP of them).',
    wrongType: 'The file must be an XML file of the bank, or a ZIP of them.',
  });

/**
 * Imports a bank statement (Administrators; not in the spec; docs/decisions/033): a camt.053 account
 * statement or camt.054 notification, or a ZIP of them, at most 50 MB. Each credit quoting the
 * reference of an issued invoice pays it; the other credits wait in the review queue. Below, the five
 * counts (see {@link StatementImportResult}). A file the server refuses is explained by its own
 * sentence; importing the same file twice adds nothing.
 */
export function StatementImportForm() {
  const importStatement = useImportBankStatement();
  return (
    <BankFileUploadForm
      formLabel="Import a statement"
      intro="The bank's statement (camt.053) or credit notification (camt.054), as XML or a ZIP of them. Each credit that quotes the reference of an invoice is recorded as its payment; the others wait below for review."
      fieldLabel="Statement file"
      placeholder="Choose the XML or ZIP file"
      inputLabel="Bank statement file"
      accept=".xml,.zip,application/xml,text/xml,application/zip"
      fileProblem={statementFileProblem}
      upload={(file) => importStatement.mutateAsync(file)}
      pending={importStatement.isPending}
      onImported={(imported) => notifySuccess(`The statement was imported: ${importSummaryText(imported)}.`)}
      renderResult={(result) => <StatementImportResult result={result} />}
    />
  );
}
