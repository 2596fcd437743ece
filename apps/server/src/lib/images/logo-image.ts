import {
  type ImageMessages,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  LOGO_MESSAGES,
} from '@back-office/contract/settings';
import { imageSize } from 'image-size';

type LogoType = 'png' | 'jpeg';

/**
 * Why a logo (or another image setting, such as the signature image) is refused: one of the contract's
 * `LOGO_*_MESSAGE` texts, or of the messages given.
 */
export class LogoImageError extends Error {}

const SIGNATURES: Record<LogoType, readonly number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
};

/** What image-size calls each logo type. */
const HEADER_TYPES: Record<LogoType, string> = { png: 'png', jpeg: 'jpg' };

/**
 * Reads a logo data URL and checks it from its first bytes and its header only, never decoding the
 * pixels: a PNG or JPEG (by its signature, matching the declared type) of at most 1 MB and at most
 * 2,000 × 2,000 pixels (PNG IHDR, JPEG SOF). A tiny file declaring a huge image (a decompression bomb)
 * is refused here, before anything decodes it (docs/security.md).
 * `messages` word the refusals (the logo's by default; `SIGNATURE_IMAGE_MESSAGES` for the signature).
 * @returns the type, the bytes and the declared width and height in pixels.
 * @throws LogoImageError with the contract's message.
 */
export function readLogoHeader(
  logo: string,
  messages: ImageMessages = LOGO_MESSAGES,
): {
  type: LogoType;
  bytes: Buffer;
  width: number;
  height: number;
} {
  const match = /^data:image\/(png|jpeg);base64,(.+)$/.exec(logo);
  if (!match?.[1] || !match[2]) throw new LogoImageError(messages.type);
  const type = match[1] as LogoType;
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > LOGO_MAX_BYTES) throw new LogoImageError(messages.size);
  if (!SIGNATURES[type].every((byte, index) => bytes[index] === byte)) {
    throw new LogoImageError(messages.type);
  }
  let header: ReturnType<typeof imageSize>;
  try {
    header = imageSize(bytes);
  } catch {
    throw new LogoImageError(messages.damaged);
  }
  if (header.type !== HEADER_TYPES[type]) throw new LogoImageError(messages.type);
  if (!header.width || !header.height) throw new LogoImageError(messages.damaged);
  if (header.width > LOGO_MAX_SIDE || header.height > LOGO_MAX_SIDE) {
    throw new LogoImageError(messages.pixels);
  }
  return { type, bytes, width: header.width, height: header.height };
}

/**
 * Checks a logo data URL ({@link readLogoHeader}) and re-encodes it with sharp (libvips, on libuv's
 * thread pool, so the event loop stays free), bounded to 2,000 × 2,000 pixels even if the header lied.
 * What comes out is a plain PNG or JPEG of the same type and size, turned upright, without metadata
 * (EXIF, comments, text chunks, colour profiles), extra frames or bytes after the image.
 * `messages` as for {@link readLogoHeader}.
 * @returns the re-encoded logo as a data URL.
 * @throws LogoImageError with the contract's message (damaged when the pixels cannot be decoded).
 */
export async function reencodeLogo(logo: string, messages: ImageMessages = LOGO_MESSAGES): Promise<string> {
  const { type, bytes } = readLogoHeader(logo, messages);
  // Loaded at the first logo rather than at start-up (libvips is a large part of the module loading).
  const { default: sharp } = await import('sharp');
  let output: Buffer;
  try {
    const image = sharp(bytes, {
      limitInputPixels: LOGO_MAX_SIDE * LOGO_MAX_SIDE,
      failOn: 'error',
    }).autoOrient();
    output = await (type === 'png'
      ? image.png({ compressionLevel: 9 })
      : image.jpeg({ quality: 90 })
    ).toBuffer();
  } catch {
    throw new LogoImageError(messages.damaged);
  }
  return `data:image/${type};base64,${output.toString('base64')}`;
}

let lastDrawable: { logo: string; drawable: boolean } | undefined;

/**
 * The logo to draw on a document (receipt, invoice, mandate letter), or null when there is none or it
 * breaks the limits of {@link readLogoHeader}: a logo stored before those limits is left off rather
 * than decoded on every document. Reads the header only; the last answer is kept.
 */
export function drawableLogo(logo: string | null | undefined): string | null {
  if (!logo) return null;
  if (lastDrawable?.logo !== logo) {
    let drawable = true;
    try {
      readLogoHeader(logo);
    } catch {
      drawable = false;
    }
    lastDrawable = { logo, drawable };
  }
  return lastDrawable.drawable ? logo : null;
}
