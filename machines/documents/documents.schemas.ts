/**
 * The document upload's rules (spec section 5, "Document upload": type required; at least one
 * file; at most the type's number of files; each file within the type's size limit and of a
 * supported type). The limits come from GET /api/v2/documents/types (per type: max_files 5,
 * max_size_mb 10, JPEG/PNG/WebP/PDF). Problems are field errors whose messages are locale keys;
 * the view adds the numbers from the type's limits. The server checks the content again.
 */
import type { FieldError } from '../../contract/envelope';
import type { DocumentTypeInfo } from '../../contract/profile';

export type UploadFile = Pick<File, 'name' | 'type' | 'size'>;

/** Extensions for files the browser gives no MIME type. */
const EXTENSION_MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** The file's MIME type as far as the browser knows it (from the extension when it gives none). */
export function mimeOf(file: Pick<File, 'name' | 'type'>): string {
  const type = file.type.toLowerCase();
  if (type) return type === 'image/jpg' ? 'image/jpeg' : type;
  const dot = file.name.lastIndexOf('.');
  return dot >= 0 ? (EXTENSION_MIME[file.name.slice(dot + 1).toLowerCase()] ?? '') : '';
}

export function typeInfoOf(types: readonly DocumentTypeInfo[], docType: string): DocumentTypeInfo | undefined {
  return types.find((t) => t.type === docType);
}

/** Everything wrong with an upload (empty when it may be sent). */
export function uploadProblems(docType: string, files: readonly UploadFile[], types: readonly DocumentTypeInfo[]): FieldError[] {
  const problems: FieldError[] = [];
  const info = typeInfoOf(types, docType);
  if (!info) problems.push({ field: 'type', message: 'profile.documents.type_required' });
  if (files.length === 0) {
    problems.push({ field: 'files', message: 'profile.documents.files_required' });
    return problems;
  }
  if (!info) return problems;
  if (files.length > info.max_files) problems.push({ field: 'files', message: 'profile.documents.too_many_files' });
  else if (files.some((f) => !(info.accepted as readonly string[]).includes(mimeOf(f)))) problems.push({ field: 'files', message: 'profile.documents.file_type_invalid' });
  else if (files.some((f) => f.size > info.max_size_mb * 1024 * 1024)) problems.push({ field: 'files', message: 'profile.documents.file_too_large' });
  else if (files.some((f) => f.size === 0)) problems.push({ field: 'files', message: 'profile.documents.file_empty' });
  return problems;
}
