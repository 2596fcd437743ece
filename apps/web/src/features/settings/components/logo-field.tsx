import { LOGO_MAX_BYTES } from '@back-office/contract/settings';
import { Box, Button, Center, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useRef } from 'react';

/** Why a logo is refused (issue 3 §5), worded as the contract's own checks. */
export const LOGO_TYPE_MESSAGE = 'The logo must be a PNG or JPEG image.';
export const LOGO_SIZE_MESSAGE = 'The logo must be at most 1 MB.';
const LOGO_READ_MESSAGE = 'The file could not be read.';
const LOGO_TYPES = ['image/png', 'image/jpeg'];

/** Why `file` cannot be the logo (PNG or JPEG, at most 1 MB; issue 3 §5), or null when it can. */
export function logoFileProblem(file: File): string | null {
  if (!LOGO_TYPES.includes(file.type)) return LOGO_TYPE_MESSAGE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_SIZE_MESSAGE;
  return null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(reader.error));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

type LogoFieldProps = {
  /** The logo as a data URL, or null for none. */
  value: string | null;
  error?: ReactNode;
  onChange: (value: string | null) => void;
  onError: (message: string | null) => void;
};

/**
 * The organisation's logo (issue 3 §5: PNG or JPEG, at most 1 MB, checked here before the server
 * checks it again): a preview, a button to choose a file and one to remove the logo.
 */
export function LogoField({ value, error, onChange, onError }: LogoFieldProps) {
  const resetRef = useRef<() => void>(null);
  const handleFile = async (file: File | null) => {
    if (!file) return;
    // Forget the pick, so that choosing the same file again is noticed.
    resetRef.current?.();
    const problem = logoFileProblem(file);
    if (problem) {
      onError(problem);
      return;
    }
    try {
      onChange(await readAsDataUrl(file));
      onError(null);
    } catch {
      onError(LOGO_READ_MESSAGE);
    }
  };

  return (
    <Input.Wrapper label="Logo" description="PNG or JPEG, at most 1 MB." error={error} id="settings-logo">
      <Group align="center" gap="md" mt={6} wrap="nowrap">
        <Box
          w={160}
          h={96}
          bd="1px solid var(--mantine-color-gray-3)"
          bg="gray.0"
          style={{ borderRadius: 'var(--mantine-radius-sm)', flexShrink: 0 }}
        >
          {value ? (
            <Image src={value} alt="Logo preview" h="100%" w="100%" fit="contain" p={4} />
          ) : (
            <Center h="100%">
              <Stack gap={2} align="center">
                <IconPhoto size={24} color="var(--mantine-color-gray-5)" aria-hidden />
                <Text size="xs" c="dimmed">
                  No logo
                </Text>
              </Stack>
            </Center>
          )}
        </Box>
        <Stack gap="xs">
          <FileButton
            resetRef={resetRef}
            accept={LOGO_TYPES.join(',')}
            onChange={(file) => void handleFile(file)}
            inputProps={{ 'aria-label': 'Logo file' }}
          >
            {(props) => (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconUpload size={14} aria-hidden />}
                {...props}
              >
                {value ? 'Change logo' : 'Choose a logo'}
              </Button>
            )}
          </FileButton>
          {value ? (
            <Button
              variant="subtle"
              color="red"
              size="xs"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => {
                onChange(null);
                onError(null);
              }}
            >
              Remove logo
            </Button>
          ) : null}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
