import {
  type ImageMessages,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  LOGO_MESSAGES,
  SIGNATURE_IMAGE_MESSAGES,
} from '@back-office/contract/settings';
import { Box, Button, Center, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { imageSize } from 'image-size';
import { type ReactNode, useRef } from 'react';

const IMAGE_READ_MESSAGE = 'The file could not be read.';
const IMAGE_TYPES = ['image/png', 'image/jpeg'];
/** What image-size calls each accepted file type. */
const HEADER_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** How one image setting is named on screen, and the server's own words for a refused file. */
export type ImageFieldKind = {
  /** The settings field, where a refused save moves the focus (components/server-error-banner.tsx). */
  path: 'logo' | 'signatureImage';
  label: string;
  /** What the field says of the image and its limits (the contract's `LOGO_MAX_*`). */
  description: string;
  /** "logo", "signature image": the words of the buttons, the preview and the empty box. */
  noun: string;
  messages: ImageMessages;
  /** Width and height of the preview box, in pixels. */
  preview: { width: number; height: number };
};

/** The organisation's logo, on documents and emails. */
export const LOGO_FIELD: ImageFieldKind = {
  path: 'logo',
  label: 'Logo',
  description: `PNG or JPEG, at most 1 MB and ${LOGO_MAX_SIDE} × ${LOGO_MAX_SIDE} pixels.`,
  noun: 'logo',
  messages: LOGO_MESSAGES,
  preview: { width: 160, height: 96 },
};

/** The signatory's signature, printed on tax receipts above their name. */
export const SIGNATURE_IMAGE_FIELD: ImageFieldKind = {
  path: 'signatureImage',
  label: 'Signature image',
  description: `A scan of the signatory's signature, printed on tax receipts: PNG or JPEG (at most 1 MB, ${LOGO_MAX_SIDE} × ${LOGO_MAX_SIDE} pixels), ideally on a white or transparent background.`,
  noun: 'signature image',
  messages: SIGNATURE_IMAGE_MESSAGES,
  preview: { width: 200, height: 80 },
};

/** Why `file` cannot be the image by its type and size in bytes (PNG or JPEG, at most 1 MB), or null when it can. */
export function imageFileProblem(file: File, messages: ImageMessages): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return messages.type;
  if (file.size > LOGO_MAX_BYTES) return messages.size;
  return null;
}

/**
 * Why the bytes of a `type` file (`image/png` or `image/jpeg`) cannot be the image by their header,
 * never decoding the pixels: not that kind of image, or over {@link LOGO_MAX_SIDE} pixels wide or high
 * (the server refuses the same); null when they can.
 */
export function imageHeaderProblem(type: string, bytes: Uint8Array, messages: ImageMessages): string | null {
  let header: ReturnType<typeof imageSize>;
  try {
    header = imageSize(bytes);
  } catch {
    return messages.type;
  }
  if (header.type !== HEADER_TYPES[type]) return messages.type;
  if (header.width > LOGO_MAX_SIDE || header.height > LOGO_MAX_SIDE) return messages.pixels;
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

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type ImageFieldProps = {
  kind: ImageFieldKind;
  /** The image as a data URL, or null for none. */
  value: string | null;
  error?: ReactNode;
  onChange: (value: string | null) => void;
  onError: (message: string | null) => void;
};

/**
 * An image setting (the logo, the signature image): PNG or JPEG, at most 1 MB and 2000 × 2000 pixels,
 * checked here from the file's size and header before the server checks it again and stores it
 * re-encoded. A preview, a button to choose a file and one to remove the image.
 */
export function ImageField({ kind, value, error, onChange, onError }: ImageFieldProps) {
  const resetRef = useRef<() => void>(null);
  const handleFile = async (file: File | null) => {
    if (!file) return;
    // Forget the pick, so that choosing the same file again is noticed.
    resetRef.current?.();
    const problem = imageFileProblem(file, kind.messages);
    if (problem) {
      onError(problem);
      return;
    }
    try {
      const headerProblem = imageHeaderProblem(
        file.type,
        new Uint8Array(await file.arrayBuffer()),
        kind.messages,
      );
      if (headerProblem) {
        onError(headerProblem);
        return;
      }
      onChange(await readAsDataUrl(file));
      onError(null);
    } catch {
      onError(IMAGE_READ_MESSAGE);
    }
  };
  const noun = capitalised(kind.noun);

  return (
    <Input.Wrapper
      label={kind.label}
      description={kind.description}
      error={error}
      id={`settings-${kind.path}`}
    >
      <Group align="center" gap="md" mt={6} wrap="wrap">
        <Box
          w={kind.preview.width}
          h={kind.preview.height}
          maw="100%"
          bd="1px solid var(--mantine-color-gray-3)"
          bg="gray.0"
          style={{ borderRadius: 'var(--mantine-radius-sm)', flexShrink: 0 }}
        >
          {value ? (
            <Image src={value} alt={`${noun} preview`} h="100%" w="100%" fit="contain" p={4} />
          ) : (
            <Center h="100%">
              <Stack gap={2} align="center">
                <IconPhoto size={24} color="var(--mantine-color-gray-5)" aria-hidden />
                <Text size="xs" c="dimmed">
                  No {kind.noun}
                </Text>
              </Stack>
            </Center>
          )}
        </Box>
        <Stack gap="xs">
          <FileButton
            resetRef={resetRef}
            accept={IMAGE_TYPES.join(',')}
            onChange={(file) => void handleFile(file)}
            inputProps={{ 'aria-label': `${noun} file` }}
          >
            {(props) => (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconUpload size={14} aria-hidden />}
                // Where a refused save of the image moves the focus (components/server-error-banner.tsx).
                data-path={kind.path}
                data-label={kind.label}
                {...props}
              >
                {value ? `Change ${kind.noun}` : `Choose a ${kind.noun}`}
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
              Remove {kind.noun}
            </Button>
          ) : null}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
