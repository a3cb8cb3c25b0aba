/**
 * Where uploads live on disk: DATA_DIR/uploads/avatars/<random>.webp and
 * DATA_DIR/uploads/documents/<user id>/<random>. File names are random tokens made here, never
 * anything the user sent, and every name read back from a URL or the database is checked
 * against the pattern before it becomes a path. Writes go to a temporary name and are renamed
 * into place, so a reader never sees half a file.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

export const AVATAR_FILE_PATTERN = /^[A-Za-z0-9_-]{32}\.webp$/;
export const DOCUMENT_FILE_PATTERN = /^[A-Za-z0-9_-]{32}$/;
export const AVATAR_URL_PREFIX = '/uploads/avatars/';

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function avatarsDir(dataDir: string): string {
  return path.join(uploadsDir(dataDir), 'avatars');
}

export function userDocumentsDir(dataDir: string, userId: number): string {
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad user id');
  return path.join(uploadsDir(dataDir), 'documents', String(userId));
}

/** 24 random bytes as base64url: 32 characters. */
export function randomFileName(): string {
  return crypto.randomBytes(24).toString('base64url');
}

export function avatarPath(dataDir: string, file: string): string | null {
  return AVATAR_FILE_PATTERN.test(file) ? path.join(avatarsDir(dataDir), file) : null;
}

export function documentPath(dataDir: string, userId: number, storageName: string): string | null {
  return DOCUMENT_FILE_PATTERN.test(storageName) ? path.join(userDocumentsDir(dataDir, userId), storageName) : null;
}

/** The avatar file a front_settings.avatar_url points at, or null when it is not one of ours. */
export function avatarFileOfUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith(AVATAR_URL_PREFIX)) return null;
  const file = url.slice(AVATAR_URL_PREFIX.length);
  return AVATAR_FILE_PATTERN.test(file) ? file : null;
}

/** Write `data` to `file` through a temporary sibling and a rename (mode 0600: only the server reads uploads). */
export async function writeFileAtomic(file: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(tmp, data, { mode: 0o600, flag: 'wx' });
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Remove files, ignoring ones already gone; never throws (a leftover file is logged, not fatal). */
export async function removeFiles(files: (string | null)[], log?: { warn(obj: object, msg: string): void }): Promise<void> {
  for (const f of files) {
    if (!f) continue;
    try {
      await fs.rm(f, { force: true });
    } catch (err) {
      log?.warn({ err, file: f }, 'could not remove an upload');
    }
  }
}
