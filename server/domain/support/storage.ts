/**
 * Where support attachments live: DATA_DIR/uploads/support/<user id>/<random>, like identity
 * documents (profile/storage.ts): the name is a random token made here, checked against the
 * pattern before it becomes a path; the trader's file name is only displayed.
 */
import path from 'node:path';
import { DOCUMENT_FILE_PATTERN, uploadsDir } from '../profile/storage';

export function supportFilesDir(dataDir: string, userId: number): string {
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad user id');
  return path.join(uploadsDir(dataDir), 'support', String(userId));
}

export function supportFilePath(dataDir: string, userId: number, storageName: string): string | null {
  return DOCUMENT_FILE_PATTERN.test(storageName) ? path.join(supportFilesDir(dataDir, userId), storageName) : null;
}
