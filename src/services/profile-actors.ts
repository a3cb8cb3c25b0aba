/**
 * The real implementations of the profile screen's named actors: REST calls through
 * profile-api.ts and, for a document download, handing the file to the browser.
 * profileImplementations() returns the `profilePage` flow machine provided with them, ready to
 * be spread into createImplementations() (src/services/actors.ts) and so into
 * appMachine.provide().
 */
import { fromPromise } from 'xstate';
import type { Document, Profile, TelegramLinkCode, TelegramStatus, TwoFactorSetup } from '../../contract/profile';
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
import type { HttpClient } from './http';
import { createProfileApi, type ProfileApi } from './profile-api';
import { journalImplementation } from './trader-tools-actors';
import { resendVerificationMachine, type ResendVerificationInput } from '../../machines/email-verification/resend-verification.machine';

export interface ProfileServiceDeps {
  http: HttpClient;
  /** The browser window (downloads need its document); null where there is none. */
  window: Window | null;
}

/** Saves a Blob under `name` through a temporary object URL and a download link. */
export function saveBlob(win: Window | null, blob: Blob, name: string): void {
  if (!win) throw new Error('Downloads need a browser window');
  const url = URL.createObjectURL(blob);
  try {
    const link = win.document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    link.style.display = 'none';
    win.document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL dies.
    win.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** The section machines provided with calls on `api` (exported for tests with a real server). */
export function profileSectionImplementations(api: ProfileApi, win: Window | null) {
  return {
    profile: profileMachine.provide({
      actors: {
        loadProfile: fromPromise<Profile, void>(() => api.getProfile()),
        savePersonalData: fromPromise<Profile, SavePersonalDataInput>(({ input }) => api.updatePersonalData(input.patch)),
      },
    }),
    security: securityMachine.provide({
      actors: {
        changePassword: fromPromise<void, ChangePasswordInput>(({ input }) => api.changePassword(input)),
        startTwoFactor: fromPromise<TwoFactorSetup, void>(() => api.enableTwoFactor()),
        confirmTwoFactor: fromPromise<string[], TwoFactorCodeInput>(({ input }) => api.verifyTwoFactor(input.code)),
        disableTwoFactor: fromPromise<void, TwoFactorCodeInput>(({ input }) => api.disableTwoFactor(input.code)),
        countRecoveryCodes: fromPromise<number, void>(() => api.recoveryCodesLeft()),
        regenerateRecoveryCodes: fromPromise<string[], TwoFactorCodeInput>(({ input }) => api.regenerateRecoveryCodes(input.code)),
      },
    }),
    avatar: avatarMachine.provide({
      actors: {
        uploadAvatar: fromPromise<AvatarResult, UploadAvatarInput>(({ input }) => api.uploadAvatar(input.file, input.file.name)),
      },
    }),
    documents: documentsMachine.provide({
      actors: {
        loadDocuments: fromPromise<DocumentsSnapshotData, void>(async () => {
          const [types, documents] = await Promise.all([api.documentTypes(), api.listDocuments()]);
          return { types, documents };
        }),
        uploadDocuments: fromPromise<Document[], UploadDocumentsInput>(async ({ input }) => [await api.uploadDocuments(input.docType, input.files)]),
        deleteDocument: fromPromise<void, DeleteDocumentInput>(({ input }) => api.deleteDocument(input.id)),
        downloadDocumentFile: fromPromise<void, DownloadDocumentFileInput>(async ({ input }) => {
          saveBlob(win, await api.documentFile(input.documentId, input.fileId), input.name);
        }),
      },
    }),
    verification: resendVerificationMachine.provide({
      actors: { resendVerification: fromPromise<void, ResendVerificationInput>(({ input }) => api.resendVerification(input.email)) },
    }),
    telegram: telegramMachine.provide({
      actors: {
        loadTelegramStatus: fromPromise<TelegramStatus, void>(() => api.telegramStatus()),
        createTelegramLink: fromPromise<TelegramLinkCode, void>(() => api.createTelegramLink()),
        unlinkTelegram: fromPromise<TelegramStatus, void>(() => api.unlinkTelegram()),
      },
    }),
  };
}

/** `{ profilePage }` for createImplementations(): the profile screen's flow with real effects. */
export function profileImplementations(deps: ProfileServiceDeps) {
  return {
    profilePage: profilePageMachine.provide({
      actors: { ...profileSectionImplementations(createProfileApi(deps.http), deps.window), journal: journalImplementation(deps.http) },
    }),
  };
}
