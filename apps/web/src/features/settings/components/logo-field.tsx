import {
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  LOGO_PIXELS_MESSAGE,
  LOGO_SIZE_MESSAGE,
  LOGO_TYPE_MESSAGE,
} from '@back-office/contract/settings';
import { Box, Button, Center, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { imageSize } from 'image-size';
import { type ReactNode, useRef } from 'react';

const LOGO_READ_MESSAGE = 'The file could not be read.';
/** What the field says of the limits, the server's own (contract `LOGO_*`). */
const LOGO_LIMITS = `PNG or JPEG, at most 1 MB and ${LOGO_MAX_SIDE} × ${LOGO_MAX_SIDE} pixels.`;
const LOGO_TYPES = ['image/png', 'image/jpeg'];
/** What image-size calls each accepted file type. */
const HEADER_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** Why `file` cannot be the logo by its type and size in bytes (PNG or JPEG, at most 1 MB), or null when it can. */
export function logoFileProblem(file: File): string | null {
  if (!LOGO_TYPES.includes(file.type)) return LOGO_TYPE_MESSAGE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_SIZE_MESSAGE;
  return null;
}

/**
 * Why the bytes of a `type` file (`image/png` or `image/jpeg`) cannot be the logo by their header, never
 * decoding the pixels: not that kind of image, or over {@link LOGO_MAX_SIDE} pixels wide or high (the
 * server refuses the same); null when they can.
 */
export function logoHeaderProblem(type: string, bytes: Uint8Array): string | null {
  let header: ReturnType<typeof imageSize>;
  try {
    header = imageSize(bytes);
  } catch {
    return LOGO_TYPE_MESSAGE;
  }
  if (header.type !== HEADER_TYPES[type]) return LOGO_TYPE_MESSAGE;
  if (header.width > LOGO_MAX_SIDE || header.height > LOGO_MAX_SIDE) return LOGO_PIXELS_MESSAGE;
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
 * The organisation's logo (PNG or JPEG, at most 1 MB and 2000 × 2000 pixels, checked here from the
 * file's size and header before the server checks it again and stores it re-encoded): a preview, a
 * button to choose a file and one to remove the logo.
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
      const headerProblem = logoHeaderProblem(file.type, new Uint8Array(await file.arrayBuffer()));
      if (headerProblem) {
        onError(headerProblem);
        return;
      }
      onChange(await readAsDataUrl(file));
      onError(null);
    } catch {
      onError(LOGO_READ_MESSAGE);
    }
  };

  return (
    <Input.Wrapper label="Logo" description={LOGO_LIMITS} error={error} id="settings-logo">
      <Group align="center" gap="md" mt={6} wrap="wrap">
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
                // Where a refused save of the logo moves the focus (components/server-error-banner.tsx).
                data-path="logo"
                data-label="Logo"
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
