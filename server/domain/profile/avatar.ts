/**
 * Avatars. An upload is accepted only when its bytes are a JPEG, PNG, WebP or GIF (file-sniff),
 * and it is never stored as sent: sharp decodes it, applies the EXIF orientation, scales it to
 * fit 512 x 512 and writes a fresh WebP, which drops every metadata chunk (EXIF with GPS,
 * comments, tEXt) and anything smuggled after the image data. The new file gets a random name;
 * front_settings.avatar_url points at it; the previous file is deleted once the change committed.
 */
import fs from 'node:fs/promises';
import sharp from 'sharp';
import type { Trx } from '../../db';
import { AVATAR_MAX_SIDE, ProfileText } from '../../../contract/profile';
import { ErrorText } from '../../../contract/envelope';
import { NotFound, invalid } from '../errors';
import { parseFrontSettings } from '../users';
import type { ProfileDeps } from './deps';
import { sniffType } from './file-sniff';
import { AVATAR_URL_PREFIX, avatarFileOfUrl, avatarPath, randomFileName, removeFiles, writeFileAtomic } from './storage';

/** Refuse decompression bombs: a 5 MB file may claim enormous dimensions. */
const MAX_INPUT_PIXELS = 40_000_000;

export const AVATAR_CONTENT_TYPE = 'image/webp';

/** Decode and re-encode an uploaded image; throws 400 for anything that is not a readable image of an accepted type. */
export async function reencodeAvatar(input: Buffer): Promise<Buffer> {
  const type = sniffType(input);
  if (type === null || type === 'application/pdf') throw invalid(ProfileText.unsupportedImageType);
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .autoOrient()
      .resize(AVATAR_MAX_SIDE, AVATAR_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw invalid(ProfileText.unreadableImage);
  }
}

/** Store a new avatar for the user and point front_settings.avatar_url at it; answers the URL path. */
export async function saveAvatar(deps: ProfileDeps, userId: number, upload: Buffer): Promise<string> {
  const encoded = await reencodeAvatar(upload);
  const file = `${randomFileName()}.webp`;
  const target = avatarPath(deps.dataDir, file)!;
  await writeFileAtomic(target, encoded);
  const url = AVATAR_URL_PREFIX + file;
  let previous: string | null;
  try {
    previous = await deps.tx((trx) => setAvatarUrl(trx, userId, url, deps.now()));
  } catch (err) {
    await removeFiles([target], deps.log);
    throw err;
  }
  if (previous && previous !== file) await removeFiles([avatarPath(deps.dataDir, previous)], deps.log);
  return url;
}

/** Set avatar_url in the stored front settings; answers the previous avatar file of ours, if any. */
async function setAvatarUrl(trx: Trx, userId: number, url: string, now: number): Promise<string | null> {
  const row = await trx.selectFrom('users').select('front_settings').where('id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFound(ErrorText.userNotFound);
  const settings = parseFrontSettings(row.front_settings);
  const previous = avatarFileOfUrl(settings.avatar_url);
  await trx
    .updateTable('users')
    .set({ front_settings: JSON.stringify({ ...settings, avatar_url: url }), updated_at: now })
    .where('id', '=', userId)
    .execute();
  return previous;
}

/** The bytes of a stored avatar, or null (unknown or malformed name). */
export async function readAvatar(dataDir: string, file: string): Promise<Buffer | null> {
  const p = avatarPath(dataDir, file);
  if (!p) return null;
  try {
    return await fs.readFile(p);
  } catch {
    return null;
  }
}
