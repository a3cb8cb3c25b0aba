/**
 * The profile screen in jsdom with the real app actor and the real profile machines, their
 * REST calls stubbed: the flow opens and closes with the page, the transactions slot and the
 * section navigation, the personal form (checked on blur, only changes sent, the server's
 * refusal shown next to the field), the password change and two-factor enrolment, documents
 * (status badges, no Delete for approved ones, the upload rules, the confirmation that stays
 * open on failure), Telegram (waiting for the bot, linked) and the interface settings.
 */
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { appMachine, type AppInput } from '../../machines/app/app.machine';
import { withFeatures } from '../support/app-features';
import { sessionMachine, type SaveFrontSettingsInput } from '../../machines/session/session.machine';
import { socketMachine } from '../../machines/socket/socket.machine';
import type { User } from '../../contract/user';
import { profilePageMachine } from '../../machines/profile/profile-page.machine';
import { profileMachine, type SavePersonalDataInput } from '../../machines/profile/profile.machine';
import { securityMachine, type ChangePasswordInput, type TwoFactorCodeInput } from '../../machines/security/security.machine';
import { avatarMachine, type AvatarResult, type UploadAvatarInput } from '../../machines/avatar/avatar.machine';
import {
  documentsMachine,
  type DeleteDocumentInput,
  type DocumentsSnapshotData,
  type DownloadDocumentFileInput,
  type UploadDocumentsInput,
} from '../../machines/documents/documents.machine';
import { telegramMachine } from '../../machines/telegram/telegram.machine';
import { DOCUMENT_TYPE_INFO, type Document, type Profile, type TelegramLinkCode, type TelegramStatus, type TwoFactorSetup } from '../../contract/profile';
import { RuntimeProvider } from '../../src/shared/runtime';
import type { AppRuntime } from '../../src/app/create-app-actor';
import { I18nProvider } from '../../src/i18n';
import { ProfilePage } from '../../src/features/profile/ProfilePage';
import { makeProfile as baseProfile, makeUser } from '../machines/fixtures';
import { resendVerificationMachine, type ResendVerificationInput } from '../../machines/email-verification/resend-verification.machine';

const never = <T,>() => new Promise<T>(() => {});

/** The machine tests' profile with push notifications on. */
const makeProfile = (overrides: Partial<Profile> = {}): Profile => baseProfile({ notifications: { email: true, push: true, sms: false }, ...overrides });

function doc(id: number, status: Document['status'], extra: Partial<Document> = {}): Document {
  return {
    id,
    type: 'passport',
    status,
    files: [{ id: id * 10, name: `scan-${id}.png`, size: 2048, mime: 'image/png' }],
    created_at: 1_760_000_000,
    updated_at: 1_760_000_000,
    rejection_reason: null,
    ...extra,
  };
}

const setupData: TwoFactorSetup = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_code: 'data:image/png;base64,iVBORw0KGgo=', expires_at: 1_900_000_000 };
const RECOVERY_CODES = ['k7m2px9qaz', 'abcdefghjk', 'mnpqrstuvw', 'xyz2345678', '9abcdefghj', 'kmnpqrstuv', 'wxyz234567', '89abcdefgh', 'jkmnpqrstu', 'vwxyz23456'];
const unlinked: TelegramStatus = { linked: false, telegram: null, pending_code: null, deep_link: null, expires_at: null };

interface Server {
  loadProfile: () => Promise<Profile>;
  savePersonalData: (input: SavePersonalDataInput) => Promise<Profile>;
  changePassword: (input: ChangePasswordInput) => Promise<void>;
  startTwoFactor: () => Promise<TwoFactorSetup>;
  confirmTwoFactor: (input: TwoFactorCodeInput) => Promise<string[]>;
  loadDocuments: () => Promise<DocumentsSnapshotData>;
  uploadDocuments: (input: UploadDocumentsInput) => Promise<Document[]>;
  deleteDocument: (input: DeleteDocumentInput) => Promise<void>;
  loadTelegramStatus: () => Promise<TelegramStatus>;
  createTelegramLink: () => Promise<TelegramLinkCode>;
}

function startProfileApp(server: Partial<Server> = {}, user: User = makeUser()) {
  const calls = { save: [] as SavePersonalDataInput[], change: [] as ChangePasswordInput[], confirm: [] as string[], upload: [] as UploadDocumentsInput[], remove: [] as number[], resend: [] as string[] };
  const logic = appMachine.provide({
    actors: {
      ...withFeatures,
      session: sessionMachine.provide({
        actors: {
          saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(() => Promise.resolve({})),
          fetchMe: fromPromise<User, void>(() => Promise.resolve(makeUser())),
        },
      }),
      socket: socketMachine.provide({ actors: { socketConnection: fromCallback(() => {}) } }),
      profilePage: profilePageMachine.provide({
        actors: {
          profile: profileMachine.provide({
            actors: {
              loadProfile: fromPromise<Profile, void>(() => (server.loadProfile ?? (() => Promise.resolve(makeProfile())))()),
              savePersonalData: fromPromise<Profile, SavePersonalDataInput>(({ input }) => {
                calls.save.push(input);
                return (server.savePersonalData ?? never)(input);
              }),
            },
          }),
          security: securityMachine.provide({
            actors: {
              changePassword: fromPromise<void, ChangePasswordInput>(({ input }) => {
                calls.change.push(input);
                return (server.changePassword ?? (() => Promise.resolve()))(input);
              }),
              startTwoFactor: fromPromise<TwoFactorSetup, void>(() => (server.startTwoFactor ?? (() => Promise.resolve(setupData)))()),
              confirmTwoFactor: fromPromise<string[], TwoFactorCodeInput>(({ input }) => {
                calls.confirm.push(input.code);
                return (server.confirmTwoFactor ?? (() => Promise.resolve(RECOVERY_CODES)))(input);
              }),
              disableTwoFactor: fromPromise<void, TwoFactorCodeInput>(() => never()),
              countRecoveryCodes: fromPromise<number, void>(() => Promise.resolve(10)),
              regenerateRecoveryCodes: fromPromise<string[], TwoFactorCodeInput>(() => never()),
            },
          }),
          avatar: avatarMachine.provide({ actors: { uploadAvatar: fromPromise<AvatarResult, UploadAvatarInput>(() => never()) } }),
          documents: documentsMachine.provide({
            actors: {
              loadDocuments: fromPromise<DocumentsSnapshotData, void>(() =>
                (server.loadDocuments ?? (() => Promise.resolve({ types: [...DOCUMENT_TYPE_INFO], documents: [] })))(),
              ),
              uploadDocuments: fromPromise<Document[], UploadDocumentsInput>(({ input }) => {
                calls.upload.push(input);
                return (server.uploadDocuments ?? never)(input);
              }),
              deleteDocument: fromPromise<void, DeleteDocumentInput>(({ input }) => {
                calls.remove.push(input.id);
                return (server.deleteDocument ?? never)(input);
              }),
              downloadDocumentFile: fromPromise<void, DownloadDocumentFileInput>(() => never()),
            },
          }),
          verification: resendVerificationMachine.provide({
            actors: {
              resendVerification: fromPromise<void, ResendVerificationInput>(async ({ input }) => {
                calls.resend.push(input.email);
              }),
            },
          }),
          telegram: telegramMachine.provide({
            actors: {
              loadTelegramStatus: fromPromise<TelegramStatus, void>(() => (server.loadTelegramStatus ?? (() => Promise.resolve(unlinked)))()),
              createTelegramLink: fromPromise<TelegramLinkCode, void>(() => (server.createTelegramLink ?? never)()),
              unlinkTelegram: fromPromise<TelegramStatus, void>(() => never()),
            },
          }),
        },
      }),
    },
  });
  const input: AppInput = { persistedSession: null, adminToken: null, storedLanguage: null, storedTheme: null, systemPrefersDark: true };
  const actor = createActor(logic, { input }).start();
  actor.system.get('session').send({ type: 'session.registered', token: 'tok', refreshToken: null, user });
  const runtime = { actor, services: {} } as unknown as AppRuntime;
  return {
    actor,
    calls,
    render(ui: ReactNode) {
      return render(
        <RuntimeProvider runtime={runtime}>
          <I18nProvider language="en">{ui}</I18nProvider>
        </RuntimeProvider>,
      );
    },
  };
}

const section = (id: string) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no section #${id}`);
  return within(element);
};

describe('ProfilePage', () => {
  it('opens the profile flow while shown and closes it when left', async () => {
    const app = startProfileApp();
    const view = app.render(<ProfilePage />);
    expect(app.actor.getSnapshot().matches({ features: { ready: { profileFlow: 'active' } } })).toBe(true);
    expect(await screen.findByDisplayValue('Ada')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'trader7' })).toBeTruthy();
    view.unmount();
    expect(app.actor.getSnapshot().matches({ features: { ready: { profileFlow: 'inactive' } } })).toBe(true);
    expect(app.actor.system.get('profile')).toBeUndefined();
  });

  it('offers to resend the verification email while the email is not verified', async () => {
    const verified = startProfileApp();
    const first = verified.render(<ProfilePage />);
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).toBeNull();
    first.unmount();

    const app = startProfileApp({}, { ...makeUser(), email_verified: false });
    app.render(<ProfilePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText(`Verification email sent to ${makeUser().email}`)).toBeTruthy();
    expect(app.calls.resend).toEqual([makeUser().email]);
  });

  it('shows the transactions slot and its link only when given', () => {
    const app = startProfileApp();
    const view = app.render(<ProfilePage />);
    const nav = screen.getByRole('navigation', { name: 'Profile sections' });
    expect(within(nav).queryByRole('link', { name: 'Transactions' })).toBeNull();
    expect(document.getElementById('transactions')).toBeNull();
    expect(within(nav).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['#personal', '#journal', '#security', '#documents', '#telegram', '#settings']);
    view.unmount();

    app.render(<ProfilePage transactions={<p>History goes here</p>} />);
    expect(within(screen.getByRole('navigation', { name: 'Profile sections' })).getByRole('link', { name: 'Transactions' }).getAttribute('href')).toBe('#transactions');
    expect(section('transactions').getByText('History goes here')).toBeTruthy();
  });

  it('marks one section current: the one the navigation chose, not the last one too (issue 26)', async () => {
    // A click on "Telegram" scrolls to the bottom of the page; the old rule then made "Interface"
    // current while the clicked link still looked chosen. The section the address names wins
    // while its heading is on screen (jsdom lays every section out at the top, at the bottom).
    const scrollIntoView = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = () => {};
    window.history.replaceState(null, '', '#telegram');
    try {
      const app = startProfileApp();
      app.render(<ProfilePage />);
      const nav = within(screen.getByRole('navigation', { name: 'Profile sections' }));
      await waitFor(() => expect(nav.getByRole('link', { name: 'Telegram' }).getAttribute('aria-current')).toBe('location'));
      expect(nav.getAllByRole('link').filter((a) => a.hasAttribute('aria-current')).map((a) => a.textContent)).toEqual(['Telegram']);
    } finally {
      window.history.replaceState(null, '', window.location.pathname);
      Element.prototype.scrollIntoView = scrollIntoView;
    }
  });

  it('offers Retry when the profile cannot be loaded', async () => {
    let attempt = 0;
    const app = startProfileApp({ loadProfile: () => (++attempt === 1 ? Promise.reject(new Error('')) : Promise.resolve(makeProfile())) });
    app.render(<ProfilePage />);
    const personal = section('personal');
    expect(await personal.findByText('Failed to load the profile')).toBeTruthy();
    await userEvent.click(personal.getByRole('button', { name: 'Retry' }));
    expect(await personal.findByDisplayValue('Ada')).toBeTruthy();
  });
});

describe('personal information', () => {
  it('checks on blur, sends only what changed and shows the server refusal once, at the field', async () => {
    const user = userEvent.setup();
    // The server's 409 carries no details; the sentence alone says which field it is about.
    const app = startProfileApp({ savePersonalData: () => Promise.reject(new Error('Nickname is already taken')) });
    app.render(<ProfilePage />);
    const personal = section('personal');
    await personal.findByDisplayValue('Ada');
    const save = personal.getByRole('button', { name: 'Save changes' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await user.type(personal.getByLabelText('Second email'), 'trader7@example.com');
    await user.tab();
    expect(await personal.findByText('The second email must differ from your main email')).toBeTruthy();
    await user.clear(personal.getByLabelText('Second email'));

    await user.type(personal.getByLabelText('Nickname'), 'taken_name');
    await user.selectOptions(personal.getByLabelText('Citizenship'), 'ES');
    expect(personal.getByText('You have unsaved changes')).toBeTruthy();
    await user.click(personal.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(app.calls.save).toHaveLength(1));
    expect(app.calls.save[0]).toEqual({ patch: { nickname: 'taken_name', citizenship: 'ES' } });
    expect((await personal.findAllByText('Nickname is already taken')).length).toBe(1);
    const nickname = personal.getByLabelText('Nickname') as HTMLInputElement;
    expect(nickname.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(nickname);
  });
});

describe('security', () => {
  it('checks the password change as spec section 5 says and sends it', async () => {
    const user = userEvent.setup();
    const app = startProfileApp();
    app.render(<ProfilePage />);
    const security = section('security');
    await user.type(await security.findByLabelText(/^Current password/), 'Trade#Pass2026');
    // The form states the rule, the same as registration's.
    expect(security.getByText('At least 8 characters with a lowercase and an uppercase letter, a number and a special character, no spaces')).toBeTruthy();
    await user.type(security.getByLabelText(/^New password/), 'abcdef');
    await user.tab();
    expect(await security.findByText('Password must be at least 8 characters')).toBeTruthy();
    await user.clear(security.getByLabelText(/^New password/));
    await user.type(security.getByLabelText(/^New password/), 'abcdefgh');
    expect(await security.findByText('Password must contain at least one uppercase letter')).toBeTruthy();
    await user.clear(security.getByLabelText(/^New password/));
    await user.type(security.getByLabelText(/^New password/), 'Fresh#Pass27');
    await user.type(security.getByLabelText(/^Confirm new password/), 'Fresh#Pazz27');
    await user.tab();
    expect(await security.findByText('Passwords do not match')).toBeTruthy();
    expect(app.calls.change).toEqual([]);
    await user.clear(security.getByLabelText(/^Confirm new password/));
    await user.type(security.getByLabelText(/^Confirm new password/), 'Fresh#Pass27');
    await user.click(security.getByRole('button', { name: 'Change password' }));
    expect(await security.findByText('Password changed. Other devices have been signed out.')).toBeTruthy();
    expect(app.calls.change).toEqual([{ old_password: 'Trade#Pass2026', new_password: 'Fresh#Pass27', confirm_password: 'Fresh#Pass27' }]);
    expect((security.getByLabelText(/^Current password/) as HTMLInputElement).value).toBe('');
  });

  it('says "Current password is incorrect" once, at the field', async () => {
    const user = userEvent.setup();
    const app = startProfileApp({
      changePassword: () =>
        Promise.reject(
          Object.assign(new Error('Current password is incorrect'), { details: [{ field: 'old_password', message: 'Current password is incorrect' }] }),
        ),
    });
    app.render(<ProfilePage />);
    const security = section('security');
    await user.type(await security.findByLabelText(/^Current password/), 'Wrong#Pass1');
    await user.type(security.getByLabelText(/^New password/), 'Fresh#Pass27');
    await user.type(security.getByLabelText(/^Confirm new password/), 'Fresh#Pass27');
    await user.click(security.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(app.calls.change).toHaveLength(1));
    expect((await security.findAllByText('Current password is incorrect')).length).toBe(1);
    expect((security.getByLabelText(/^Current password/) as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
  });

  it('flags a mismatched confirmation on blur even while another field is still empty', async () => {
    const user = userEvent.setup();
    startProfileApp().render(<ProfilePage />);
    const security = section('security');
    await user.type(await security.findByLabelText(/^New password/), 'Fresh#Pass27');
    await user.type(security.getByLabelText(/^Confirm new password/), 'Fresh#Pazz27');
    await user.tab();
    expect(await security.findByText('Passwords do not match')).toBeTruthy();
  });

  it('enrols two-factor: QR code and grouped key, a code, then on', async () => {
    const user = userEvent.setup();
    const app = startProfileApp();
    app.render(<ProfilePage />);
    const security = section('security');
    await user.click(await security.findByRole('button', { name: 'Enable 2FA' }));
    expect(await security.findByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeTruthy();
    expect(security.getByTestId('two-factor-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP');
    await user.type(security.getByLabelText(/^6-digit code/), '123 456');
    await user.click(security.getByRole('button', { name: 'Verify and enable' }));
    expect(await security.findByText('2FA on')).toBeTruthy();
    expect(app.calls.confirm).toEqual(['123456']);
    // The ten recovery codes, shown once in a dialog that closes only after "I saved them".
    const dialog = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const codes = within(within(dialog).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem');
    expect(codes.map((li) => li.textContent)).toEqual(RECOVERY_CODES.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`));
    const download = within(dialog).getByRole('link', { name: 'Download as text' });
    expect(download.getAttribute('download')).toBe('tradeterminal-recovery-codes.txt');
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toContain('k7m2p-x9qaz\nabcde-fghjk');
    const done = within(dialog).getByRole('button', { name: 'I saved them' });
    expect((done as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByLabelText('I have saved these codes somewhere safe'));
    await user.click(done);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save your recovery codes' })).toBeNull());
    expect(security.getByText('Unused codes left: 10 of 10')).toBeTruthy();
    expect(security.getByRole('button', { name: 'New recovery codes' })).toBeTruthy();
    expect(security.getByRole('button', { name: 'Turn off 2FA' })).toBeTruthy();
  });
});

describe('documents', () => {
  const listed = [doc(3, 'approved'), doc(2, 'rejected', { type: 'utility_bill', rejection_reason: 'Blurry photo' }), doc(1, 'pending', { type: 'selfie' })];

  it('lists documents with their status, the reason of a rejection, and Delete only when not approved', async () => {
    const app = startProfileApp({ loadDocuments: () => Promise.resolve({ types: [...DOCUMENT_TYPE_INFO], documents: listed }) });
    app.render(<ProfilePage />);
    const documents = section('documents');
    await documents.findByRole('list', { name: 'Your documents' });
    const items = [...document.querySelectorAll<HTMLElement>('#documents li.profile-doc')];
    expect(items.map((li) => li.querySelector('.profile-doc-status')?.textContent)).toEqual(['Success: Approved', 'Error: Rejected', 'Warning: Pending review']);
    expect(within(items[1]).getByText('Rejected: Blurry photo')).toBeTruthy();
    expect(within(items[0]).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(within(items[1]).getByRole('button', { name: 'Delete Utility bill' })).toBeTruthy();
    expect(within(items[2]).getByRole('button', { name: 'Delete Selfie with document' })).toBeTruthy();
  });

  it('asks for a type and files before uploading, then sends them', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const app = startProfileApp({ uploadDocuments: () => Promise.resolve([doc(9, 'pending')]) });
    app.render(<ProfilePage />);
    const documents = section('documents');
    await user.click(await documents.findByRole('button', { name: 'Upload' }));
    expect(documents.getByText('Please choose the document type')).toBeTruthy();
    expect(documents.getByText('Please attach at least one file')).toBeTruthy();
    expect(app.calls.upload).toEqual([]);
    await user.selectOptions(await documents.findByLabelText(/^Document type/), 'passport');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'scan.png', { type: 'image/png' });
    await user.upload(documents.getByLabelText(/^Files/, { selector: 'input' }), file);
    await user.click(documents.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(app.calls.upload).toEqual([{ docType: 'passport', files: [file] }]));
    expect(await documents.findByText('Pending review')).toBeTruthy();
    expect((documents.getByLabelText(/^Document type/) as HTMLSelectElement).value).toBe('');
  });

  it('deletes after confirming; a failure keeps the dialog open with the error', async () => {
    const user = userEvent.setup();
    let attempt = 0;
    const app = startProfileApp({
      loadDocuments: () => Promise.resolve({ types: [...DOCUMENT_TYPE_INFO], documents: [doc(1, 'pending')] }),
      deleteDocument: () => (++attempt === 1 ? Promise.reject(new Error('')) : Promise.resolve()),
    });
    app.render(<ProfilePage />);
    await user.click(await section('documents').findByRole('button', { name: 'Delete Passport' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this document?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Failed to delete document')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.calls.remove).toEqual([1, 1]);
    expect(await section('documents').findByText('No documents yet')).toBeTruthy();
  });
});

describe('Telegram', () => {
  it('shows the deep link and the code while waiting for the bot', async () => {
    const link: TelegramLinkCode = { code: 'Ab3dEf6hIj9kLm2nOp4q', deep_link: 'https://t.me/TradeTerminalBot?start=Ab3dEf6hIj9kLm2nOp4q', expires_at: 1_900_000_000 };
    const app = startProfileApp({ createTelegramLink: () => Promise.resolve(link) });
    app.render(<ProfilePage />);
    const telegram = section('telegram');
    await userEvent.click(await telegram.findByRole('button', { name: 'Connect Telegram' }));
    expect((await telegram.findByRole('link', { name: 'Open the bot' })).getAttribute('href')).toBe(link.deep_link);
    expect(telegram.getByTestId('telegram-code').textContent).toBe(`/start ${link.code}`);
    expect(telegram.getByText('Waiting for the bot to confirm…')).toBeTruthy();
  });

  it('shows the linked account', async () => {
    const app = startProfileApp({
      loadTelegramStatus: () =>
        Promise.resolve({
          linked: true,
          telegram: { id: 424242, username: 'ada_tg', first_name: 'Ada', last_name: 'L', language: 'en', linked_at: 1_760_000_000 },
          pending_code: null,
          deep_link: null,
          expires_at: null,
        }),
    });
    app.render(<ProfilePage />);
    const telegram = section('telegram');
    expect(await telegram.findByText('@ada_tg')).toBeTruthy();
    expect(telegram.getByText('424242')).toBeTruthy();
    expect(telegram.getByRole('button', { name: 'Disconnect' })).toBeTruthy();
  });
});

describe('interface settings', () => {
  it('sends the theme and language choices to the theme and locale actors', async () => {
    const user = userEvent.setup();
    const app = startProfileApp();
    app.render(<ProfilePage />);
    const settings = section('settings');
    await user.click(settings.getByRole('radio', { name: 'Light' }));
    expect(app.actor.system.get('theme').getSnapshot().context.setting).toBe('light');
    await user.click(settings.getByRole('radio', { name: 'Auto' }));
    expect(app.actor.system.get('theme').getSnapshot().context.setting).toBe('auto');
    expect(settings.getByText(/Follows your system/)).toBeTruthy();
    await act(async () => {
      await user.click(settings.getByRole('radio', { name: 'Español' }));
    });
    expect(app.actor.system.get('locale').getSnapshot().context.language).toBe('es');
  });
});
