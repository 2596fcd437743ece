import {
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MAX_ROWS,
  type Import,
  type ImportKind,
  importKindSchema,
} from '@back-office/contract/imports';
import { Alert, Button, FileInput, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useStartImport } from '../api/start-import.ts';
import { IMPORT_KIND_LABELS } from '../import-labels.ts';

const KIND_OPTIONS = importKindSchema.options.map((kind) => ({
  value: kind,
  label: IMPORT_KIND_LABELS[kind],
}));
const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx'];
const LIMITS = `CSV or XLSX with a header row, at most ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MB and ${formatNumber(IMPORT_MAX_ROWS)} rows.`;

/** Why the server would refuse `file` by its name or size (it checks again, and reads it), or null. */
function fileProblem(file: File | null): string | null {
  if (!file) return 'Choose a CSV or XLSX file.';
  const name = file.name.toLowerCase();
  if (!ACCEPTED_EXTENSIONS.some((extension) => name.endsWith(extension))) {
    return 'The file must be a CSV or XLSX file.';
  }
  if (file.size === 0) return 'The file is empty.';
  if (file.size > IMPORT_MAX_FILE_BYTES) return 'The file is larger than 50 MB.';
  return null;
}

type ImportUploadFormProps = {
  /** Called with the uploaded import (status `uploaded`, with its columns and guessed mapping). */
  onStarted: (started: Import) => void;
};

/**
 * The first step of an import: what the file brings in (subscribers, donations, sales or products) and the file, sent by
 * `POST /api/imports`; a file the server refuses (not CSV or XLSX, empty, too large, no header row) is
 * explained by its own sentence in a red alert.
 */
export function ImportUploadForm({ onStarted }: ImportUploadFormProps) {
  const start = useStartImport();
  const [kind, setKind] = useState<ImportKind>('subscribers');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRefusal(null);
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file) return;
    try {
      onStarted(await start.mutateAsync({ kind, file }));
    } catch (error) {
      setRefusal(
        error instanceof ApiError && error.detail && error.status < 500
          ? error.detail
          : 'The server could not take the file. Please try again or contact your system administrator.',
      );
    }
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Upload a file">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <Select
            label="Kind"
            data={KIND_OPTIONS}
            value={kind}
            onChange={(value) => setKind(importKindSchema.catch('subscribers').parse(value))}
            allowDeselect={false}
            withAsterisk
          />
          <FileInput
            label="File"
            description={LIMITS}
            placeholder="Choose a CSV or XLSX file"
            accept={ACCEPTED_EXTENSIONS.join(',')}
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setFileError(null);
            }}
            error={fileError}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            // The hidden file input the button opens, named for tests and assistive tools that reach it.
            fileInputProps={{ 'aria-label': 'File to import' }}
            withAsterisk
          />
        </SimpleGrid>
        {refusal ? (
          <Alert color="red" variant="light" title="The file was not uploaded">
            <Text size="sm">{refusal}</Text>
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={start.isPending} leftSection={<IconUpload size={16} aria-hidden />}>
            Upload
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
