/**
 * Content type by content: the magic bytes at the start of a file, never its name or the type
 * the browser claimed (both are the uploader's to choose). Only the formats the profile accepts
 * are recognised; everything else (an executable, a script, text renamed .jpg) is null.
 */

export type SniffedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'application/pdf';

const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

export function sniffType(buf: Buffer): SniffedType | null {
  // JPEG: SOI marker followed by the start of another marker.
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // PNG: the fixed 8-byte signature.
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // WebP: a RIFF container whose form type is WEBP.
  if (startsWith(buf, ascii('RIFF')) && startsWith(buf, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(buf, ascii('%PDF-'))) return 'application/pdf';
  return null;
}

/** How far from the end a PDF's %%EOF marker may sit (trailing whitespace or junk after it). */
export const PDF_EOF_WINDOW = 1024;

/** A PDF that is complete: starts with %PDF- and has %%EOF within the last kilobyte. */
export function isCompletePdf(buf: Buffer): boolean {
  if (!startsWith(buf, ascii('%PDF-'))) return false;
  const tail = buf.subarray(Math.max(0, buf.length - PDF_EOF_WINDOW));
  return tail.includes('%%EOF', 0, 'latin1');
}

export const EXTENSION: Record<SniffedType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};
