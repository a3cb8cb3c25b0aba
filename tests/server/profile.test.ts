/**
 * The profile over real HTTP: GET /api/v2/user/profile, the partial personal-data update with
 * every rule (wrong types, unknown keys, a 17-year-old, a bad time zone or country, the second
 * email, the passport dates, nickname uniqueness, clearing), the password change (wrong
 * current password, other sessions signed out while this one stays, the email notice), and the
 * `auto` theme round-trip of front settings. A refused request changes nothing stored.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { useTestServer } from '../support/server-fixture';
import { lastMailTo, register, type Registered } from '../support/auth';
import { ProfileText } from '../../contract/profile';
import { FieldText, PasswordSchema } from '../../contract/auth';

const server = useTestServer({ RATE_LIMIT: 'false' });

const profile = (u: Registered) => server.api('GET', '/api/v2/user/profile', undefined, u.token);
const update = (u: Registered, body: unknown) => server.api('POST', '/api/v2/profile/personal-data', body, u.token);

/** A YYYY-MM-DD date `years` years before today (UTC), shifted by `days`. */
function yearsAgo(years: number, days = 0): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function storedProfile(userId: number) {
  const user = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const extra = await server.ctx.db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return { user, extra: extra ?? null };
}

describe('GET /api/v2/user/profile', () => {
  it('answers the whole profile of a fresh account', async () => {
    const u = await register(server);
    const r = await profile(u);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, error: null, error_message: null });
    expect(r.body.data).toEqual({
      user_id: u.userId,
      username: u.username,
      email: u.email,
      email_verified: false,
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+15550102030',
      second_email: null,
      birthday: null,
      gender: null,
      timezone: null,
      citizenship: null,
      nickname: null,
      notifications: { email: true, push: true, sms: false },
      telegram: null,
      passport: null,
      avatar_url: null,
      two_factor_enabled: false,
      created_at: expect.any(Number),
    });
    expect(Math.abs(r.body.data.created_at - Date.now() / 1000)).toBeLessThan(60);
  });

  it('needs a valid bearer token', async () => {
    expect((await server.api('GET', '/api/v2/user/profile')).status).toBe(401);
    const r = await server.api('GET', '/api/v2/user/profile', undefined, 'not-a-token');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, data: null, error: 'Unauthorized', error_message: 'Unauthorized' });
  });
});

describe('POST /api/v2/profile/personal-data', () => {
  it('stores a full valid update and answers the updated profile', async () => {
    const u = await register(server);
    const birthday = yearsAgo(30);
    const r = await update(u, {
      first_name: '  Grace ',
      last_name: 'Hopper',
      phone: '+44 20 7946 0958',
      second_email: 'grace.backup@example.org',
      birthday,
      gender: 'female',
      timezone: 'Europe/Madrid',
      citizenship: 'us',
      nickname: `grace_${u.userId}`,
      notifications: { sms: true, push: false },
      passport_number: 'AB 123-456',
      passport_issued_by: 'Department of State',
      passport_issue_date: yearsAgo(5),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      phone: '+442079460958',
      second_email: 'grace.backup@example.org',
      birthday,
      gender: 'female',
      timezone: 'Europe/Madrid',
      citizenship: 'US',
      nickname: `grace_${u.userId}`,
      notifications: { email: true, push: false, sms: true },
      passport: { number: 'AB 123-456', issued_by: 'Department of State', issue_date: yearsAgo(5) },
    });
    // The same profile is what GET answers afterwards, and it is in the database.
    expect((await profile(u)).body.data).toEqual(r.body.data);
    const { user, extra } = await storedProfile(u.userId);
    expect(user.first_name).toBe('Grace');
    expect(extra).toMatchObject({ citizenship: 'US', notify_email: 1, notify_push: 0, notify_sms: 1 });
  });

  it('is partial: unsent fields stay, null or an empty string clears an optional field', async () => {
    const u = await register(server);
    await update(u, { gender: 'other', timezone: 'Asia/Tokyo', nickname: `nick${u.userId}` });
    const r = await update(u, { timezone: null, nickname: '' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ gender: 'other', timezone: null, nickname: null, first_name: 'Ada' });
    const n = await update(u, { notifications: { email: false } });
    expect(n.body.data.notifications).toEqual({ email: false, push: true, sms: false });
  });

  it('accepts a birthday exactly 18 years ago and refuses one that makes the user 17', async () => {
    const u = await register(server);
    const before = await storedProfile(u.userId);
    const young = await update(u, { birthday: yearsAgo(18, 1) });
    expect(young.status).toBe(400);
    expect(young.body).toMatchObject({ success: false, data: null, error: ProfileText.tooYoung, error_message: ProfileText.tooYoung });
    expect(young.body.details).toEqual([{ field: 'birthday', message: ProfileText.tooYoung }]);
    expect(await storedProfile(u.userId)).toEqual(before);

    expect((await update(u, { birthday: yearsAgo(18) })).status).toBe(200);
    expect((await update(u, { birthday: yearsAgo(121) })).body.error).toBe(ProfileText.tooOld);
    expect((await update(u, { birthday: '2001-02-29' })).body.error).toBe('Birthday must be a real date (YYYY-MM-DD)');
    expect((await update(u, { birthday: '01.02.1990' })).status).toBe(400);
  });

  const refusals: [string, unknown, string, string][] = [
    ['an unknown key', { first_name: 'Bob', is_admin: true }, 'is_admin', 'Unknown field: is_admin'],
    ['a number for a name', { first_name: 42 }, 'first_name', 'First name must be text'],
    ['an empty name', { last_name: '   ' }, 'last_name', 'Last name is required'],
    ['a name of 65 characters', { first_name: 'x'.repeat(65) }, 'first_name', 'First name must be at most 64 characters'],
    ['a bad phone', { phone: '12-ab' }, 'phone', 'Please enter a valid phone number'],
    ['a bad second email', { second_email: 'not-an-email' }, 'second_email', 'Please enter a valid second email'],
    ['an unknown gender', { gender: 'robot' }, 'gender', 'Gender must be male, female or other'],
    ['a bad time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Unknown timezone'],
    ['a time zone of the wrong type', { timezone: 3 }, 'timezone', 'Timezone must be text'],
    ['a bad country', { citizenship: 'XX' }, 'citizenship', 'Unknown country code'],
    ['a 3-letter country', { citizenship: 'USA' }, 'citizenship', 'Citizenship must be a 2-letter country code'],
    ['a short nickname', { nickname: 'ab' }, 'nickname', 'Nickname must be 3-32 characters'],
    ['a nickname with a space', { nickname: 'bad nick' }, 'nickname', 'Nickname may contain only letters, digits and _'],
    ['a string for a notification flag', { notifications: { sms: 'yes' } }, 'notifications.sms', 'SMS notifications must be true or false'],
    ['an unknown notification channel', { notifications: { pigeon: true } }, 'notifications.pigeon', 'Unknown field: pigeon'],
    ['a passport number with symbols', { passport_number: 'AB<script>' }, 'passport_number', 'Passport number may contain only letters, digits, spaces and dashes'],
    ['an issuer of 201 characters', { passport_issued_by: 'x'.repeat(201) }, 'passport_issued_by', 'Issued by must be at most 200 characters'],
    ['an issue date in the future', { passport_issue_date: '2999-01-01' }, 'passport_issue_date', ProfileText.issueDateInFuture],
    [
      'an issue date before the birthday in the same update',
      { birthday: '1990-05-05', passport_issue_date: '1990-05-04' },
      'passport_issue_date',
      ProfileText.issueDateBeforeBirthday,
    ],
    ['an empty body', {}, '', ProfileText.atLeastOneField],
  ];
  for (const [what, body, field, message] of refusals) {
    it(`refuses ${what} with 400 and changes nothing`, async () => {
      const u = await register(server);
      const before = await storedProfile(u.userId);
      const r = await update(u, body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null, error: message, error_message: message });
      expect(r.body.details).toContainEqual({ field, message });
      expect(await storedProfile(u.userId)).toEqual(before);
    });
  }

  it('refuses a body that is not a JSON object', async () => {
    const u = await register(server);
    for (const body of ['[1,2]', '"text"', '{broken']) {
      const r = await server.api('POST', '/api/v2/profile/personal-data', body, u.token);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
    }
  });

  it('checks the rules that depend on what is stored', async () => {
    const u = await register(server);
    const same = await update(u, { second_email: u.email.toUpperCase() });
    expect(same.status).toBe(400);
    expect(same.body.error).toBe(ProfileText.secondEmailSameAsPrimary);

    expect((await update(u, { birthday: '1990-05-05' })).status).toBe(200);
    const early = await update(u, { passport_issue_date: '1989-12-31' });
    expect(early.status).toBe(400);
    expect(early.body.details).toEqual([{ field: 'passport_issue_date', message: ProfileText.issueDateBeforeBirthday }]);
    expect((await update(u, { passport_issue_date: '1999-01-01' })).status).toBe(200);
    // Moving the birthday after the stored issue date is refused the same way.
    expect((await update(u, { birthday: '2000-01-01' })).body.error).toBe(ProfileText.issueDateBeforeBirthday);
    expect((await profile(u)).body.data).toMatchObject({ birthday: '1990-05-05', passport: { issue_date: '1999-01-01' } });
  });

  it('keeps nicknames unique ignoring case (409) and lets the owner keep theirs', async () => {
    const a = await register(server);
    const b = await register(server);
    const nick = `Trader_${a.userId}`;
    expect((await update(a, { nickname: nick })).status).toBe(200);
    const taken = await update(b, { nickname: nick.toLowerCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(ProfileText.nicknameTaken);
    expect((await update(a, { nickname: nick.toUpperCase() })).status).toBe(200);
  });

  it('accepts any zone the runtime knows and stores its canonical name, whatever the case or alias', async () => {
    const u = await register(server);
    const canonical = (zone: string) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    const cases: [sent: string, stored: string][] = [
      ['europe/madrid', 'Europe/Madrid'],
      ['EUROPE/MADRID', 'Europe/Madrid'],
      ['Etc/GMT+5', 'Etc/GMT+5'],
      ['etc/gmt-14', 'Etc/GMT-14'],
      ['UTC', 'UTC'],
      ['utc', 'UTC'],
      ['Etc/UTC', 'UTC'],
      ['America/North_Dakota/New_Salem', 'America/North_Dakota/New_Salem'],
      // An alias becomes the runtime's canonical name (Node 20's ICU: Europe/Kiev; newer: Europe/Kyiv).
      ['Europe/Kyiv', canonical('Europe/Kyiv')],
      ['US/Eastern', 'America/New_York'],
    ];
    for (const [sent, stored] of cases) {
      const r = await update(u, { timezone: sent });
      expect(r.status, `${sent}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data.timezone, sent).toBe(stored);
      expect((await storedProfile(u.userId)).extra?.timezone, sent).toBe(stored);
    }
    expect((await profile(u)).body.data.timezone).toBe('America/New_York');
  });

  it('refuses names Intl does not know, offsets and odd shapes, and changes nothing', async () => {
    const u = await register(server);
    expect((await update(u, { timezone: 'Asia/Tokyo' })).status).toBe(200);
    for (const bad of ['Europe/Madird', 'Mars/Olympus_Mons', '+05:00', 'GMT+5:00', 'Europe/../Madrid', 'Europe/Madrid ', 'x'.repeat(65), 'Etc/GMT+15']) {
      const r = await update(u, { timezone: bad });
      // A trailing space is trimmed like in every other field, so that one is accepted.
      if (bad === 'Europe/Madrid ') {
        expect(r.body.data.timezone).toBe('Europe/Madrid');
        continue;
      }
      expect(r.status, bad).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'Unknown timezone', details: [{ field: 'timezone', message: 'Unknown timezone' }] });
    }
    expect((await storedProfile(u.userId)).extra?.timezone).toBe('Europe/Madrid');
  });
});

describe('front settings theme', () => {
  it('round-trips theme "auto" through PATCH and /me', async () => {
    const u = await register(server);
    const r = await server.api('PATCH', '/api/v2/profile/front-settings', { theme: 'auto' }, u.token);
    expect(r.status).toBe(200);
    expect(r.body.data.theme).toBe('auto');
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.front_settings.theme).toBe('auto');
    expect((await server.api('PATCH', '/api/v2/profile/front-settings', { theme: 'sepia' }, u.token)).status).toBe(400);
  });
});

describe('POST /api/v2/user/change-password', () => {
  const change = (token: string, body: unknown) => server.api('POST', '/api/v2/user/change-password', body, token);
  const login = (u: Registered, password: string) => server.api('POST', '/api/platform/auth/login', { username: u.username, password });

  it('refuses a wrong current password and changes nothing', async () => {
    const u = await register(server);
    const before = await server.ctx.db.selectFrom('users').select(['password_hash', 'password_changed_at']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    const r = await change(u.token, { old_password: 'Wrong!Pass1', new_password: 'Another#1x', confirm_password: 'Another#1x' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, data: null, error: ProfileText.currentPasswordIncorrect });
    const after = await server.ctx.db.selectFrom('users').select(['password_hash', 'password_changed_at']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await login(u, u.password)).status).toBe(200);
  });

  it('validates the new password', async () => {
    const u = await register(server);
    const cases: [unknown, string][] = [
      [{ new_password: 'abcdef' }, 'Current password is required'],
      [{ old_password: u.password }, 'New password is required'],
      [{ old_password: u.password, new_password: 'Ab#12' }, FieldText.passwordMinLength],
      [{ old_password: u.password, new_password: 'x'.repeat(129) }, FieldText.passwordMaxLength],
      [{ old_password: u.password, new_password: '        ' }, FieldText.passwordNoSpaces],
      [{ old_password: u.password, new_password: 'Abcdef#1', confirm_password: 'Abcdef#2' }, ProfileText.passwordsDoNotMatch],
      [{ old_password: u.password, new_password: u.password }, ProfileText.passwordUnchanged],
      [{ old_password: u.password, new_password: 123456 }, 'Password must be text'],
    ];
    for (const [body, message] of cases) {
      const r = await change(u.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe(message);
    }
    expect((await login(u, u.password)).status).toBe(200);
  });

  it('refuses a weak new password with the registration rule (issue 26) and changes nothing', async () => {
    const u = await register(server);
    const before = await server.ctx.db.selectFrom('users').select(['password_hash', 'password_changed_at']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    // Each misses one thing registration and reset demand; "abcdef" was accepted before.
    const cases: [string, string][] = [
      ['abcdef', FieldText.passwordMinLength],
      ['abcdefgh', FieldText.passwordUppercase],
      ['ABCDEFG#1', FieldText.passwordLowercase],
      ['Abcdefg#h', FieldText.passwordDigit],
      ['Abcdefg12', FieldText.passwordSpecial],
      ['Abc def#12', FieldText.passwordNoSpaces],
    ];
    for (const [weak, message] of cases) {
      const r = await change(u.token, { old_password: u.password, new_password: weak, confirm_password: weak });
      expect(r.status, weak).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null, error: message });
      // The same rule, and text, as registration's.
      const reg = v.safeParse(PasswordSchema, weak, { abortPipeEarly: true });
      expect(reg.success ? null : reg.issues[0].message).toBe(message);
    }
    const after = await server.ctx.db.selectFrom('users').select(['password_hash', 'password_changed_at']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await login(u, u.password)).status).toBe(200);
    expect((await login(u, 'abcdef')).status).toBe(401);
  });

  it('changes the password, keeps this session, signs every other session out and emails a notice', async () => {
    const u = await register(server);
    const other = await login(u, u.password);
    expect(other.status).toBe(200);
    const otherToken: string = other.body.data.token;
    const otherRefresh: string = other.body.data.refresh_token;
    expect((await profile({ ...u, token: otherToken })).status).toBe(200);

    const r = await change(u.token, { old_password: u.password, new_password: 'Simple#Pass2', confirm_password: 'Simple#Pass2' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual({ message: ProfileText.passwordChanged });

    // This session goes on, including its refresh token.
    expect((await profile(u)).status).toBe(200);
    const refreshed = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken });
    expect(refreshed.status).toBe(200);
    // The other session is over: its access token and its refresh token are refused.
    expect((await profile({ ...u, token: otherToken })).status).toBe(401);
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: otherRefresh })).status).toBe(401);
    // Only the new password logs in.
    expect((await login(u, u.password)).status).toBe(401);
    expect((await login(u, 'Simple#Pass2')).status).toBe(200);

    const mail = await lastMailTo(server, u.email);
    expect(mail?.subject).toBe('Your password was changed');
    expect(mail?.body).toContain('All other sessions have been signed out');
  });

  it('writes the notice in the user language', async () => {
    const u = await register(server, { language: 'ru' });
    const r = await change(u.token, { old_password: u.password, new_password: 'Новый#Pass1' });
    expect(r.status).toBe(200);
    expect((await lastMailTo(server, u.email))?.subject).toBe('Пароль изменён');
  });
});
