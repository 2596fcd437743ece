import {
  COLLECTION_RETURNS_MAX_FILE_BYTES,
  type CollectionReturnsResult,
} from '@back-office/contract/collections';
import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { useImportCollectionReturns } from '../api/import-collection-returns.ts';
import { ReturnsResult } from './returns-result.tsx';

const MEGABYTES = COLLECTION_RETURNS_MAX_FILE_BYTES / 1024 / 1024;

/** Why the server would refuse `file` by its name or size (it checks again, and reads it), or null. */
function fileProblem(file: File | null): string | null {
  if (!file) return 'Choose the bank file (pain.002 or camt.054).';
  if (!file.name.toLowerCase().endsWith('.xml')) return 'The file must be the XML file of the bank.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > COLLECTION_RETURNS_MAX_FILE_BYTES) return `The file is larger than ${MEGABYTES} MB.`;
  return null;
}

/**
 * Imports a bank's return file (Administrators; not in the spec; docs/decisions/029): a pain.002
 * status report (collections rejected before settlement) or a camt.054 notification (collections
 * debited back). Below, what it did: the counts and each transaction (see {@link ReturnsResult}). A file
 * the server refuses is explained by its own sentence; importing the same file twice changes nothing.
 */
export function ReturnsImportForm() {
  const importReturns = useImportCollectionReturns();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [result, setResult] = useState<CollectionReturnsResult | null>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRefusal(null);
    setResult(null);
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file) return;
    try {
      setResult(await importReturns.mutateAsync(file));
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
    <Stack gap="md">
      <form onSubmit={handleSubmit} noValidate aria-label="Import returns">
        <Stack gap="md">
          <Text size="sm">
            The bank reports the debits it rejected (pain.002) or took back (camt.054) in an XML file. Each
            debit it names is marked returned or rejected, its donation cancelled, and its mandate suspended
            when the reason says it can no longer be used.
          </Text>
          <FileInput
            label="Bank file"
            placeholder="Choose the XML file"
            accept=".xml,application/xml,text/xml"
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setFileError(null);
            }}
            error={fileError}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            // The hidden file input the button opens, named for tests and assistive tools that reach it.
            fileInputProps={{ 'aria-label': 'Bank return file' }}
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
              loading={importReturns.isPending}
              leftSection={<IconUpload size={16} aria-hidden />}
            >
              Import
            </Button>
          </Group>
        </Stack>
      </form>
      {result ? <ReturnsResult result={result} /> : null}
    </Stack>
  );
}
