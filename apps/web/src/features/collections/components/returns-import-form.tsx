import { COLLECTION_RETURNS_MAX_FILE_BYTES } from '@back-office/contract/collections';
import { BankFileUploadForm, bankFileProblem } from '../../../components/bank-file-upload-form.tsx';
import { useImportCollectionReturns } from '../api/import-collection-returns.ts';
import { ReturnsResult } from './returns-result.tsx';

/** Why the server would refuse a return file by its name or size, or null. */
const returnFileProblem = (file: File | null) =>
  bankFileProblem(file, {
    extensions: ['.xml'],
    maxBytes: COLLECTION_RETURNS_MAX_FILE_BYTES,
    missing: 'Choose the bank file (pain.002 or camt.054).',
    wrongType: 'The file must be the XML file of the bank.',
  });

/**
 * Imports a bank's return file (Administrators; not in the spec; docs/decisions/030): a pain.002
 * status report (collections rejected before settlement) or a camt.054 notification (collections
 * debited back). Below, what it did: the counts and each transaction (see {@link ReturnsResult}). A file
 * the server refuses is explained by its own sentence; importing the same file twice changes nothing.
 */
export function ReturnsImportForm() {
  const importReturns = useImportCollectionReturns();
  return (
    <BankFileUploadForm
      formLabel="Import returns"
      intro="The bank reports the debits it rejected (pain.002) or took back (camt.054) in an XML file. Each debit it names is marked returned or rejected, its donation cancelled, and its mandate suspended when the reason says it can no longer be used."
      fieldLabel="Bank file"
      placeholder="Choose the XML file"
      inputLabel="Bank return file"
      accept=".xml,application/xml,text/xml"
      fileProblem={returnFileProblem}
      upload={(file) => importReturns.mutateAsync(file)}
      pending={importReturns.isPending}
      renderResult={(result) => <ReturnsResult result={result} />}
    />
  );
}
