import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ApiError } from '../lib/api-error.ts';

/**
 * Why a bank file would be refused by its name or size (the server checks again, and reads it), or
 * null: none chosen (`missing`), not one of `extensions` (`wrongType`), empty, or over `maxBytes`.
 */
export function bankFileProblem(
  file: File | null,
  {
    extensions,
    maxBytes,
    missing,
    wrongType,
  }: { extensions: readonly string[]; maxBytes: number; missing: string; wrongType: string },
): string | null {
  if (!file) return missing;
  const name = file.name.toLowerCase();
  if (!extensions.some((extension) => name.endsWith(extension))) return wrongType;
  if (file.size === 0) return 'The file is empty.';
  if (file.size > maxBytes) return `The file is larger than ${maxBytes / 1024 / 1024} MB.`;
  return null;
}

type BankFileUploadFormProps<T> = {
  /** The form's accessible name ("Import returns"). */
  formLabel: string;
  /** What the file is and what importing it does. */
  intro: ReactNode;
  /** The visible label of the file field, its placeholder, and the name of its hidden file input. */
  fieldLabel: string;
  placeholder: string;
  inputLabel: string;
  /** The `accept` attribute of the file input. */
  accept: string;
  /** Checks the file before sending it: the message under the field, or null. */
  fileProblem: (file: File | null) => string | null;
  /** Sends the file; resolves with the server's answer. */
  upload: (file: File) => Promise<T>;
  pending: boolean;
  /** Called with the answer (a toast, for example). */
  onImported?: (result: T) => void;
  /** What the import did, shown below the form. */
  renderResult: (result: T) => ReactNode;
};

/**
 * The upload of a file a bank sends or publishes (return files, statements, the ECB's rates; not in
 * the spec; docs/decisions/021, 030, 033): a file field checked before sending, Import with a spinner, the server's own sentence when it
 * refuses the file (a 4xx problem's `detail`), and below the form what the import did.
 */
export function BankFileUploadForm<T>({
  formLabel,
  intro,
  fieldLabel,
  placeholder,
  inputLabel,
  accept,
  fileProblem,
  upload,
  pending,
  onImported,
  renderResult,
}: BankFileUploadFormProps<T>) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [result, setResult] = useState<T | null>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRefusal(null);
    setResult(null);
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file) return;
    try {
      const answer = await upload(file);
      setResult(answer);
      setFile(null);
      onImported?.(answer);
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
      <form onSubmit={handleSubmit} noValidate aria-label={formLabel}>
        <Stack gap="md">
          <Text size="sm">{intro}</Text>
          <FileInput
            label={fieldLabel}
            placeholder={placeholder}
            accept={accept}
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setFileError(null);
            }}
            error={fileError}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
            // The hidden file input the button opens, named for tests and assistive tools that reach it.
            fileInputProps={{ 'aria-label': inputLabel }}
            withAsterisk
            maw={420}
          />
          {refusal ? (
            <Alert color="red" variant="light" title="The file was not imported">
              <Text size="sm">{refusal}</Text>
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={pending} leftSection={<IconUpload size={16} aria-hidden />}>
              Import
            </Button>
          </Group>
        </Stack>
      </form>
      {result !== null ? renderResult(result) : null}
    </Stack>
  );
}
