/**
 * Personal data: reading the whole profile (users row + user_profiles + the Telegram link +
 * the avatar from front_settings) and the partial update of POST /api/v2/profile/personal-data.
 * The contract schema checks each field on its own; the rules that need what is stored (second
 * email vs the main one, passport issue date vs a stored birthday, nickname uniqueness) are
 * checked here, inside the write transaction, so nothing half-valid is ever stored.
 */
import type { Selectable } from 'kysely';
import type { Trx } from '../../db';
import type { UserProfilesTable } from '../../db/tables/profile';
import { ProfileText, type Gender, type PersonalDataPatch, type Profile, GENDERS, OPTIONAL_PROFILE_FIELDS } from '../../../contract/profile';
import { ErrorText } from '../../../contract/envelope';
import { NotFound, conflict, invalid } from '../errors';
import { parseFrontSettings } from '../users';
import { toUnix, type ProfileDeps } from './deps';
import { isUniqueViolation } from '../../db/errors';

type ProfileRow = Selectable<UserProfilesTable>;

/** The subscriptions of a user who never saved any (no user_profiles row yet). */
export const DEFAULT_NOTIFICATIONS: Readonly<{ email: boolean; push: boolean; sms: boolean }> = { email: true, push: true, sms: false };

export async function loadProfile(db: Trx, userId: number): Promise<Profile | null> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const p = await db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const tg = await db.selectFrom('telegram_links').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const hasPassport = !!p && (p.passport_number !== null || p.passport_issued_by !== null || p.passport_issue_date !== null);
  return {
    user_id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.email_verified_at !== null,
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone,
    second_email: p?.second_email ?? null,
    birthday: p?.birthday ?? null,
    gender: p && (GENDERS as readonly string[]).includes(p.gender ?? '') ? (p.gender as Gender) : null,
    timezone: p?.timezone ?? null,
    citizenship: p?.citizenship ?? null,
    nickname: p?.nickname ?? null,
    notifications: p
      ? { email: Number(p.notify_email) === 1, push: Number(p.notify_push) === 1, sms: Number(p.notify_sms) === 1 }
      : { ...DEFAULT_NOTIFICATIONS },
    telegram: tg
      ? {
          id: Number(tg.telegram_id),
          username: tg.username,
          first_name: tg.first_name,
          last_name: tg.last_name,
          language: tg.language_code,
          linked_at: toUnix(tg.linked_at),
        }
      : null,
    passport: hasPassport ? { number: p!.passport_number, issued_by: p!.passport_issued_by, issue_date: p!.passport_issue_date } : null,
    avatar_url: parseFrontSettings(user.front_settings).avatar_url,
    two_factor_enabled: Number(user.two_factor_enabled) === 1,
    created_at: toUnix(user.created_at),
  };
}

export async function getProfile(deps: Pick<ProfileDeps, 'db'>, userId: number): Promise<Profile> {
  const profile = await loadProfile(deps.db, userId);
  if (!profile) throw new NotFound(ErrorText.userNotFound);
  return profile;
}

const fieldError = (field: string, message: string) => invalid(message, [{ field, message }]);

/** Apply a validated partial update; answers the updated profile. */
export async function updatePersonalData(deps: ProfileDeps, userId: number, patch: PersonalDataPatch): Promise<Profile> {
  const now = deps.now();
  try {
    return await deps.tx(async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
      if (!user) throw new NotFound(ErrorText.userNotFound);
      const stored = await trx.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();

      const merged = {
        second_email: pick(patch.second_email, stored?.second_email),
        birthday: pick(patch.birthday, stored?.birthday),
        passport_issue_date: pick(patch.passport_issue_date, stored?.passport_issue_date),
      };
      if (merged.second_email && merged.second_email.toLowerCase() === user.email.toLowerCase()) {
        throw fieldError('second_email', ProfileText.secondEmailSameAsPrimary);
      }
      if (merged.birthday && merged.passport_issue_date && merged.passport_issue_date <= merged.birthday) {
        throw fieldError('passport_issue_date', ProfileText.issueDateBeforeBirthday);
      }
      if (patch.nickname) {
        const taken = await trx
          .selectFrom('user_profiles')
          .select('user_id')
          .where((eb) => eb(eb.fn('lower', ['nickname']), '=', patch.nickname!.toLowerCase()))
          .where('user_id', '<>', userId)
          .executeTakeFirst();
        if (taken) throw conflict(ProfileText.nicknameTaken);
      }

      const userPatch: { first_name?: string; last_name?: string; phone?: string } = {};
      if (patch.first_name !== undefined) userPatch.first_name = patch.first_name;
      if (patch.last_name !== undefined) userPatch.last_name = patch.last_name;
      if (patch.phone !== undefined) userPatch.phone = patch.phone;
      if (Object.keys(userPatch).length > 0) {
        await trx.updateTable('users').set({ ...userPatch, updated_at: now }).where('id', '=', userId).execute();
      }

      const profilePatch = profileColumns(patch, stored);
      if (!stored) {
        await trx.insertInto('user_profiles').values({ user_id: userId, ...profilePatch, updated_at: now }).execute();
      } else if (Object.keys(profilePatch).length > 0) {
        await trx.updateTable('user_profiles').set({ ...profilePatch, updated_at: now }).where('user_id', '=', userId).execute();
      }
      const profile = await loadProfile(trx, userId);
      if (!profile) throw new NotFound(ErrorText.userNotFound);
      return profile;
    });
  } catch (err) {
    // The index backs the check above on databases where two writers can interleave.
    if (isUniqueViolation(err)) throw conflict(ProfileText.nicknameTaken);
    throw err;
  }
}

/** The patch's value when the key was sent (null clears), else the stored one. */
function pick<T>(sent: T | null | undefined, stored: T | null | undefined): T | null {
  return sent !== undefined ? sent : (stored ?? null);
}

type ProfileColumns = Partial<Omit<ProfileRow, 'user_id' | 'updated_at'>>;

function profileColumns(patch: PersonalDataPatch, stored: ProfileRow | undefined): ProfileColumns {
  const out: ProfileColumns = {};
  for (const k of OPTIONAL_PROFILE_FIELDS) {
    if (patch[k] !== undefined) out[k] = patch[k];
  }
  if (patch.notifications) {
    const current = stored
      ? { email: Number(stored.notify_email) === 1, push: Number(stored.notify_push) === 1, sms: Number(stored.notify_sms) === 1 }
      : DEFAULT_NOTIFICATIONS;
    const next = { ...current, ...patch.notifications };
    out.notify_email = next.email ? 1 : 0;
    out.notify_push = next.push ? 1 : 0;
    out.notify_sms = next.sms ? 1 : 0;
  }
  return out;
}
