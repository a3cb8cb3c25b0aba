/**
 * The profile screen's flow: while the screen is open it owns one actor per section.
 *
 * Lifecycle: spawned by the app on `flow.profileOpened` (id and systemId 'profilePage') and
 * stopped on `flow.profileClosed`, which stops the sections with it. On start it spawns, each
 * with the same id and systemId: `profile` (personal data), `security` (password, two-factor;
 * told whether the session's user has two-factor on), `avatar`, `documents` and `telegram`.
 * `journal` (the trading journal, issue 16) and `verification` (resend the verification email
 * while the email is not verified) start with them. Theme and language are the app's long-lived `theme` and `locale` actors, not spawned here.
 * What the sections ask of the app (`toast.requested`, `session.userRefreshRequested`) is
 * passed up unchanged.
 */
import { sendParent, setup, spawnChild, type AnyActorRef } from 'xstate';
import type { ToastRequest, User } from '../types';
import { avatarMachine } from '../avatar/avatar.machine';
import { documentsMachine } from '../documents/documents.machine';
import { securityMachine } from '../security/security.machine';
import { telegramMachine } from '../telegram/telegram.machine';
import { profileMachine } from './profile.machine';
import { journalMachine } from '../journal/journal.machine';
import { resendVerificationMachine } from '../email-verification/resend-verification.machine';

export type ProfilePageEvent = { type: 'toast.requested'; toast: ToastRequest } | { type: 'session.userRefreshRequested' };

/** The section actors' ids (and systemIds). */
export const PROFILE_SECTIONS = ['profile', 'security', 'avatar', 'documents', 'telegram', 'journal', 'verification'] as const;

/** Whether the signed-in user has two-factor on, as the session actor knows it. */
function sessionTwoFactor(self: AnyActorRef): boolean {
  const session: AnyActorRef | undefined = self.system.get('session');
  const user: User | null | undefined = session?.getSnapshot()?.context?.user;
  return user?.two_factor_enabled === true;
}

export const profilePageMachine = setup({
  types: {
    events: {} as ProfilePageEvent,
    children: {} as {
      profile: 'profile';
      security: 'security';
      avatar: 'avatar';
      documents: 'documents';
      telegram: 'telegram';
      journal: 'journal';
      verification: 'verification';
    },
  },
  actors: {
    profile: profileMachine,
    security: securityMachine,
    avatar: avatarMachine,
    documents: documentsMachine,
    telegram: telegramMachine,
    journal: journalMachine,
    verification: resendVerificationMachine,
  },
  actions: {
    spawnProfile: spawnChild('profile', { id: 'profile', systemId: 'profile' }),
    spawnSecurity: spawnChild('security', { id: 'security', systemId: 'security', input: ({ self }) => ({ twoFactorEnabled: sessionTwoFactor(self) }) }),
    spawnAvatar: spawnChild('avatar', { id: 'avatar', systemId: 'avatar' }),
    spawnDocuments: spawnChild('documents', { id: 'documents', systemId: 'documents' }),
    spawnTelegram: spawnChild('telegram', { id: 'telegram', systemId: 'telegram' }),
    spawnJournal: spawnChild('journal', { id: 'journal', systemId: 'journal' }),
    spawnVerification: spawnChild('verification', { id: 'verification', systemId: 'verification' }),
    forwardToApp: sendParent(({ event }) => event),
  },
}).createMachine({
  id: 'profilePage',
  entry: ['spawnProfile', 'spawnSecurity', 'spawnAvatar', 'spawnDocuments', 'spawnTelegram', 'spawnJournal', 'spawnVerification'],
  initial: 'open',
  states: {
    open: {
      description: 'The screen is shown; its sections work on their own.',
    },
  },
  on: {
    'toast.requested': { actions: 'forwardToApp' },
    'session.userRefreshRequested': { actions: 'forwardToApp' },
  },
});
