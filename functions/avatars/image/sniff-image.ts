import type { Dimensions } from './crop-plan';
import { InvalidImageError, UnsupportedImageError } from './errors';

/**
 * Recognises an image by its first bytes and reads its dimensions from its header, without
 * decoding a single pixel: the pixel cap is enforced on this answer before any decoder runs, so a
 * small file that declares a huge image costs nothing. The decoder enforces the same cap again.
 */

/** The image formats an avatar may be made from. */
export const ImageFormat = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif' } as const;

/** One of the {@link ImageFormat} values. */
export type ImageFormat = (typeof ImageFormat)[keyof typeof ImageFormat];

/** What the header says: the format and the dimensions of the (first frame of the) image. */
export interface SniffedImage extends Dimensions {
  readonly format: ImageFormat;
  /** The file ends before its format's end marker: cut short in transit or on disk. */
  readonly truncated: boolean;
}

interface Header extends Dimensions {
  readonly truncated: boolean;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_END_OF_IMAGE = Buffer.from([0xff, 0xd9]);

function ascii(bytes: Buffer, offset: number, length: number): string {
  return bytes.toString('latin1', offset, offset + length);
}

function formatOf(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return ImageFormat.jpeg;
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return ImageFormat.png;
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return ImageFormat.gif;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return ImageFormat.webp;
  return undefined;
}

/** Start-of-frame markers carry the dimensions; C4 (DHT), C8 (JPG) and CC (DAC) share the range. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegHeader(bytes: Buffer): Header {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) break;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
    } else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
    } else if (marker === 0xd9 || marker === 0xda) {
      break;
    } else if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) break;
      return {
        height: bytes.readUInt16BE(offset + 5),
        width: bytes.readUInt16BE(offset + 7),
        // Entropy-coded data never contains FF D9, so a file without it after the frame header is cut short.
        truncated: bytes.indexOf(JPEG_END_OF_IMAGE, offset) === -1,
      };
    } else {
      offset += 2 + bytes.readUInt16BE(offset + 2);
    }
  }
  throw new InvalidImageError('the JPEG image has no readable frame header');
}

function pngHeader(bytes: Buffer): Header {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') throw new InvalidImageError('the PNG image has no header chunk');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), truncated: bytes.lastIndexOf('IEND') === -1 };
}

function gifHeader(bytes: Buffer): Header {
  if (bytes.length < 10) throw new InvalidImageError('the GIF image has no screen descriptor');
  // Only the first frame is used; a cut in a later frame does not matter and the decoder sees the rest.
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8), truncated: false };
}

function webpHeader(bytes: Buffer): Header {
  if (bytes.length < 30) throw new InvalidImageError('the WebP image has no header');
  return { ...webpDimensions(bytes), truncated: bytes.readUInt32LE(4) + 8 > bytes.length };
}

function webpDimensions(bytes: Buffer): Dimensions {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8X') {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  throw new InvalidImageError('the WebP image has an unknown bitstream');
}

const headerReaders: Readonly<Record<ImageFormat, (bytes: Buffer) => Header>> = {
  jpeg: jpegHeader,
  png: pngHeader,
  gif: gifHeader,
  webp: webpHeader,
};

/**
 * Recognises a JPEG, PNG, WebP or GIF image by its magic bytes and reads its dimensions (of the
 * first frame, for an animation) from its header.
 *
 * @throws UnprocessableError (422) `unsupported_image` for anything else, `invalid_image` for a
 *   header that cannot be read or that declares zero pixels.
 */
export function sniffImage(bytes: Buffer): SniffedImage {
  const format = formatOf(bytes);
  if (format === undefined) throw new UnsupportedImageError();
  const header = headerReaders[format](bytes);
  if (header.width === 0 || header.height === 0) throw new InvalidImageError(`the ${format.toUpperCase()} header declares no pixels`);
  return { format, ...header };
}
