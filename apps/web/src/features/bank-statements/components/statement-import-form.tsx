import { BANK_STATEMENT_MAX_FILE_BYTES, type StatementImport } from '@back-office/contract/bank-statements';
import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useImportBankStatement } from '../api/import-bank-statement.ts';
import { importSummaryText } from '../bank-statement-format.ts';
import { StatementImportResult } from './statement-import-result.tsx';

const MEGABYTES = BANK_STATEMENT_MAX_FILE_BYTES / 1024 / 1024;

/** Why the server would refuse `file` by its name or size (it checks again, and reads it), or null. */
export function statementFileProblem(file: File | null): string | null {
  if (!file) return 'Choose the statement file (camt.053 or camt.054, or a ZIP of them).';
  const name = file.name.toLowerCase();
  if (!name.endsWith('.xml') && !name.endsWith('.zip'))
    return 'The file must be an XML file of the bank, or a ZIP of them.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > BANK_STATEMENT_MAX_FILE_BYTES) return `The file is larger than ${MEGABYTES} MB.`;
  return null;
}

/**
 * Imports a bank statement (Administrators; not in the spec; docs/decisions/033): a camt.053 account
 * statement or camt.054 notification, or a ZIP of them, at most 50 MB. Each credit quoting the
 * reference of an issued invoice pays it; the other credits wait in the review queue. Below, the five
 * counts (see {@link StatementImportResult}). A file the server refuses is explained by its own
 * sentence; importing the same file twice adds nothing.
 */
export function StatementImportForm() {
  const importStatement = useImportBankStatement();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [result, setResult] = useState<StatementImport | null>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRefusal(null);
    setResult(null);
    const problem = statementFileProblem(file);
    setFileError(problem);
    if (problem || !file) return;
    try {
      const imported = await importStatement.mutateAsync(file);
      setResult(imported);
      setFile(null);
      notifySuccess(`The statement was imported: ${importSummaryText(imported)}.`);
    } catch (error) {
      setRefusal(
        error instanceof ApiError && error.detail && error.status < 500
          ? error.detail
          : 'The server could not take the file. Please try again or contact your system administrator.',
      );
    }
  };

  return (
    <Stack gap="md">
      <form onSubmit={handleSubmit} noValidate aria-label="Import a statement">
        <Stack gap="md">
          <Text size="sm">
            The bank's statement (camt.053) or credit notification (camt.054), as XML or a ZIP of them. Each
            credit that quotes the reference of an invoice is recorded as its payment; the others wait below
            for review.
          </Text>
          <FileInput
            label="Statement file"
            placeholder="Choose the XML or ZIP file"
            accept=".xml,.zip,application/xml,text/xml,application/zip"
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setFileError(null);
            }}
            error={fileError}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            // The hidden file input the button opens, named for tests and assistive tools that reach it.
            fileInputProps={{ 'aria-label': 'Bank statement file' }}
            withAsterisk
            maw={420}
          />
          {refusal ? (
            <Alert color="red" variant="light" title="The file was not imported">
              <Text size="sm">{refusal}</Text>
            </Alert>
          ) : null}
          <Group>
            <Button
              type="submit"
              loading={importStatement.isPending}
              leftSection={<IconUpload size={16} aria-hidden />}
            >
              Import
            </Button>
          </Group>
        </Stack>
      </form>
      {result ? <StatementImportResult result={result} /> : null}
    </Stack>
  );
}
