/**
 * Media uploads (issue 20, items 9 and 10): which kinds an administrator uploads, how large each
 * may be, what a file really is (read from its first bytes, never from its name or the declared
 * content type) and how a `Range` request header reads against a file's size. Pure.
 */

const MIB = 1024 * 1024;

/** Gallery images (and video posters): up to 20 MiB. */
export const MAX_IMAGE_BYTES = 20 * MIB;
/** Documents (brochures, price lists): up to 20 MiB. */
export const MAX_DOCUMENT_BYTES = 20 * MIB;
/** Videos: up to 200 MiB, streamed to disk, never held in memory whole. */
export const MAX_VIDEO_BYTES = 200 * MIB;

/** How many leading bytes {@link sniffMediaType} needs to decide. */
export const SNIFF_BYTES = 64;

/**
 * What an upload is for: a gallery image, a document, a video of the video gallery, or the poster
 * image a video shows before it plays (stored, not listed in a gallery).
 */
export type UploadKind = 'imagen' | 'documento' | 'video' | 'poster';

export const UPLOAD_KINDS: readonly UploadKind[] = ['imagen', 'documento', 'video', 'poster'];

export type SniffedType =
  'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf' | 'video/mp4' | 'video/webm';

/** The content types each kind accepts and its size limit. */
export const UPLOAD_RULES: Record<UploadKind, { types: readonly SniffedType[]; maxBytes: number }> =
  {
    imagen: { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: MAX_IMAGE_BYTES },
    poster: { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: MAX_IMAGE_BYTES },
    documento: { types: ['application/pdf'], maxBytes: MAX_DOCUMENT_BYTES },
    video: { types: ['video/mp4', 'video/webm'], maxBytes: MAX_VIDEO_BYTES },
  };

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/**
 * The type a file's first bytes (at least {@link SNIFF_BYTES} when the file is that long) say it
 * is: JPEG (FF D8 FF), PNG (its 8-byte signature), WebP (RIFF….WEBP), PDF (%PDF-), MP4 (an
 * `ftyp` box at offset 4) or WebM (an EBML header whose DocType is `webm`); null for anything else.
 */
export function sniffMediaType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'video/mp4';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    // The EBML header names its DocType near the start: 0x42 0x82, a size, then the name.
    const head = bytes.subarray(0, Math.min(bytes.length, SNIFF_BYTES));
    for (let i = 4; i + 6 < head.length; i++) {
      if (head[i] === 0x42 && head[i + 1] === 0x82 && startsWith(head, ascii('webm'), i + 3))
        return 'video/webm';
    }
  }
  return null;
}

/** A byte range to send: `start` to `end` inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * How a `Range` header reads against a file of `size` bytes (RFC 9110 §14): null when there is
 * none or it names another unit or several ranges (the whole file is sent, 200); `'unsatisfiable'`
 * for a malformed byte range or one past the end (416); otherwise the one range to send (206).
 */
export function parseByteRange(
  header: string | null | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return null;
  const spec = match[1]!.trim();
  if (spec.includes(',')) return null;
  const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!parts || (parts[1] === '' && parts[2] === '')) return 'unsatisfiable';
  if (size === 0) return 'unsatisfiable';
  if (parts[1] === '') {
    // A suffix: the last N bytes.
    const n = Number(parts[2]);
    if (!Number.isSafeInteger(n) || n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(parts[1]);
  const end = parts[2] === '' ? size - 1 : Math.min(Number(parts[2]), size - 1);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return 'unsatisfiable';
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
