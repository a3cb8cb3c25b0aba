/**
 * The profile screen's machines with their real implementations (src/services/profile-*.ts)
 * inside the real app actor, against a real server (startTestServer): open the profile flow,
 * save personal data, upload an avatar (the session's user gets the new avatar_url), change the
 * password, turn two-factor on with a TOTP code computed from the secret shown, upload, list and
 * delete a document, link Telegram through the bot webhook and unlink it, then log in again with
 * the password and a second-factor code.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import * as OTPAuth from 'otpauth';
import { waitFor } from 'xstate';
import { useLiveApp } from '../support/live-app';

const WAIT = { timeout: 10_000 };
const { server, app } = useLiveApp();

async function png(width: number, height: number): Promise<File> {
  const data = await sharp({ create: { width, height, channels: 3, background: { r: 40, g: 110, b: 220 } } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(data)], 'scan.png', { type: 'image/png' });
}

function totp(secret: string, offsetSteps = 0): string {
  const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return generator.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe('the profile screen against a real server', () => {
  const username = `prof${Date.now() % 100000}`;
  const password = 'Secret#123';
  const newPassword = 'Brand#New1pass';
  let secret = '';

  it('opens the profile, saves personal data, uploads an avatar, changes the password and turns on two-factor', async () => {
    const register = await server.api('POST', '/api/platform/auth/register', {
      username,
      email: `${username}@example.com`,
      password,
      password_confirmation: password,
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0958',
      currency: 'USD',
      terms_accepted: true,
    });
    expect(register.status).toBeLessThan(300);

    const { actor, child, featuresReady } = await app();
    child('session').send({ type: 'session.loginSubmitted', username, password });
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    await featuresReady();
    actor.send({ type: 'flow.profileOpened' });

    const profile = await waitFor(child('profile'), (s) => s.matches('ready'), WAIT);
    expect(profile.context.profile).toMatchObject({ username, first_name: 'Ada', nickname: null });
    child('profile').send({ type: 'profile.saveRequested', patch: { nickname: `${username}_x`, timezone: 'Europe/Madrid', citizenship: 'ES', birthday: '1990-05-17' } });
    const saved = await waitFor(child('profile'), (s) => s.matches({ ready: 'idle' }), WAIT);
    expect(saved.context.saveError).toBeNull();
    expect(saved.context.profile).toMatchObject({ nickname: `${username}_x`, timezone: 'Europe/Madrid', citizenship: 'ES', birthday: '1990-05-17' });
    child('profile').send({ type: 'profile.saveRequested', patch: { second_email: `${username}@example.com` } });
    const refused = await waitFor(child('profile'), (s) => s.matches({ ready: 'idle' }) && s.context.saveError !== null, WAIT);
    expect(refused.context.saveError).toBe('The second email must differ from your main email');

    child('avatar').send({ type: 'avatar.fileChosen', file: await png(64, 48) });
    child('avatar').send({ type: 'avatar.uploadConfirmed' });
    await waitFor(child('avatar'), (s) => s.matches('idle'), WAIT);
    expect(child('avatar').getSnapshot().context.error).toBeNull();
    const refreshed = await waitFor(child('session'), (s) => Boolean(s.context.user?.front_settings.avatar_url), WAIT);
    expect(refreshed.context.user.front_settings.avatar_url).toMatch(/^\/uploads\/avatars\/[A-Za-z0-9_-]+\.webp$/);

    child('security').send({ type: 'security.passwordChangeSubmitted', oldPassword: 'Wrong#123', newPassword, confirmPassword: newPassword });
    const wrong = await waitFor(child('security'), (s) => s.matches({ password: 'idle' }) && s.context.passwordError !== null, WAIT);
    expect(wrong.context.passwordError).toBe('Current password is incorrect');
    child('security').send({ type: 'security.passwordChangeSubmitted', oldPassword: password, newPassword, confirmPassword: newPassword });
    await waitFor(child('security'), (s) => s.matches({ password: 'changed' }), WAIT);

    child('security').send({ type: 'security.twoFactorEnableRequested' });
    const setup = await waitFor(child('security'), (s) => s.matches({ twoFactor: 'awaitingCode' }), WAIT);
    secret = setup.context.setup.secret;
    expect(setup.context.setup.qr_code).toMatch(/^data:image\/png;base64,/);
    child('security').send({ type: 'security.twoFactorCodeSubmitted', code: '000000' === totp(secret) ? '111111' : '000000' });
    const bad = await waitFor(child('security'), (s) => s.matches({ twoFactor: 'awaitingCode' }) && s.context.twoFactorError !== null, WAIT);
    expect(bad.context.twoFactorError).toBe('Invalid code');
    child('security').send({ type: 'security.twoFactorCodeSubmitted', code: totp(secret) });
    const shown = await waitFor(child('security'), (s) => s.matches({ twoFactor: 'showingCodes' }), WAIT);
    expect(shown.context.recoveryCodes).toHaveLength(10);
    expect(shown.context.recoveryRemaining).toBe(10);
    child('security').send({ type: 'security.recoveryCodesSaved' });
    await waitFor(child('security'), (s) => s.matches({ twoFactor: 'enabled' }), WAIT);
    await waitFor(child('session'), (s) => s.context.user?.two_factor_enabled === true, WAIT);

    child('security').send({ type: 'security.twoFactorDisableRequested' });
    child('security').send({ type: 'security.twoFactorDisableSubmitted', code: '123456' === totp(secret) ? '654321' : '123456' });
    const stays = await waitFor(child('security'), (s) => s.matches({ twoFactor: 'confirmingDisable' }) && s.context.twoFactorError !== null, WAIT);
    expect(stays.context.twoFactorError).toBe('Invalid code');
    child('security').send({ type: 'security.twoFactorDisableCancelled' });

    actor.send({ type: 'flow.profileClosed' });
    expect(actor.system.get('security')).toBeUndefined();
  });

  it('uploads, lists and deletes a document, and links and unlinks Telegram', async () => {
    const { actor, child, featuresReady } = await app();
    child('session').send({ type: 'session.loginSubmitted', username, password: newPassword });
    const login = await waitFor(child('session'), (s) => s.matches({ loggedOut: 'awaitingTwoFactor' }), WAIT);
    child('session').send({ type: 'session.twoFactorSubmitted', code: totp(secret, 1) });
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    expect(login.context.twoFactorChallenge).toBeTruthy();
    await featuresReady();

    actor.send({ type: 'flow.profileOpened' });
    const docs = await waitFor(child('documents'), (s) => s.matches('ready'), WAIT);
    expect(docs.context.types).toHaveLength(10);
    expect(docs.context.documents).toEqual([]);
    child('documents').send({ type: 'documents.uploadSubmitted', docType: 'passport', files: [await png(120, 80)] });
    const uploaded = await waitFor(child('documents'), (s) => s.matches({ ready: { upload: 'uploaded' } }), WAIT);
    const [doc] = uploaded.context.documents;
    expect(doc).toMatchObject({ type: 'passport', status: 'uploaded', files: [{ name: 'scan.png', mime: 'image/png' }] });

    child('documents').send({ type: 'documents.deleteRequested', id: doc.id });
    child('documents').send({ type: 'documents.deleteConfirmed' });
    await waitFor(child('documents'), (s) => s.matches({ ready: { removal: 'idle' } }) && s.context.documents.length === 0, WAIT);
    const listed = await server.api('GET', '/api/v2/user/documents', undefined, child('session').getSnapshot().context.token);
    expect(listed.body.data.documents).toEqual([]);

    await waitFor(child('telegram'), (s) => s.matches('unlinked'), WAIT);
    child('telegram').send({ type: 'telegram.linkRequested' });
    const waiting = await waitFor(child('telegram'), (s) => s.matches('awaitingBot'), WAIT);
    const { code, deep_link } = waiting.context.link;
    expect(deep_link).toContain(`?start=${code}`);
    const hook = await server.api(
      'POST',
      '/api/v2/telegram/webhook',
      {
        update_id: 1,
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          from: { id: 424242, is_bot: false, first_name: 'Ada', username: 'ada_tg', language_code: 'en' },
          chat: { id: 424242, type: 'private' },
          text: `/start ${code}`,
        },
      },
      undefined,
      { 'x-telegram-bot-api-secret-token': server.ctx.secrets.telegramWebhookSecret },
    );
    expect(hook.status).toBe(200);
    child('telegram').send({ type: 'telegram.checkRequested' });
    const linked = await waitFor(child('telegram'), (s) => s.matches('linked'), WAIT);
    expect(linked.context.status.telegram).toMatchObject({ id: 424242, username: 'ada_tg' });
    child('telegram').send({ type: 'telegram.unlinkRequested' });
    child('telegram').send({ type: 'telegram.unlinkConfirmed' });
    await waitFor(child('telegram'), (s) => s.matches('unlinked'), WAIT);
  });
});
