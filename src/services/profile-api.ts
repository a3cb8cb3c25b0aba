/**
 * The profile area's REST calls (spec section 7, "Profile, security and documents"; routes in
 * server/routes/profile.ts, rules in docs/profile.md), on the SPA's http client. Each call
 * checks the answer's shape with the contract's schema and, when the server gives no text,
 * fails with the area's fallback: a locale key whose English text is the spec's (section 8:
 * "Profile update failed", "Failed to change password", ...), so the view can translate it.
 * A server text always wins. Uploads are multipart FormData (the browser sets the boundary).
 */
import * as v from 'valibot';
import {
  AvatarResultSchema,
  DocumentSchema,
  DocumentTypeInfoSchema,
  ProfileSchema,
  RecoveryCodesStatusSchema,
  TelegramLinkCodeSchema,
  TelegramStatusSchema,
  TwoFactorEnabledSchema,
  TwoFactorSetupSchema,
  type Document,
  type DocumentTypeInfo,
  type PersonalDataInput,
  type Profile,
  type TelegramLinkCode,
  type TelegramStatus,
  type TwoFactorSetup,
} from '../../contract/profile';
import { PROFILE_FALLBACKS } from '../../machines/profile/feedback';
import { RESEND_FALLBACK_KEY } from '../../machines/email-verification/resend-verification.machine';
import type { HttpClient } from './http';
import { apiClient, checked, field as get, unexpected } from './api-client';

export const PROFILE_API_FALLBACK = {
  ...PROFILE_FALLBACKS,
  download: 'profile.documents.download_failed',
  resendVerification: RESEND_FALLBACK_KEY,
  regenerateRecoveryCodes: 'profile.errors.regenerate_codes_failed',
} as const;

/**
 * Uploads send up to 5 x 10 MB (and the server decodes every file before answering): the
 * default 10 s API timeout would cut them off on an ordinary connection.
 */
export const UPLOAD_TIMEOUT_MS = 120_000;

export function createProfileApi(http: HttpClient) {
  const { call, data, parsed } = apiClient(http);

  return {
    getProfile(): Promise<Profile> {
      return parsed(ProfileSchema, PROFILE_API_FALLBACK.load, '/api/v2/user/profile', { method: 'GET' });
    },

    updatePersonalData(patch: PersonalDataInput): Promise<Profile> {
      return parsed(ProfileSchema, PROFILE_API_FALLBACK.update, '/api/v2/profile/personal-data', { method: 'POST', body: patch });
    },

    uploadAvatar(file: Blob, name = 'avatar'): Promise<{ avatar_url: string }> {
      const form = new FormData();
      form.append('avatar', file, name);
      return parsed(AvatarResultSchema, PROFILE_API_FALLBACK.avatar, '/api/v2/profile/avatar', { method: 'POST', body: form, timeout: UPLOAD_TIMEOUT_MS });
    },

    async changePassword(input: { old_password: string; new_password: string; confirm_password: string }): Promise<void> {
      await data(PROFILE_API_FALLBACK.changePassword, '/api/v2/user/change-password', { method: 'POST', body: input });
    },

    enableTwoFactor(): Promise<TwoFactorSetup> {
      return parsed(TwoFactorSetupSchema, PROFILE_API_FALLBACK.enableTwoFactor, '/api/v2/user/2fa/enable', { method: 'POST', body: {} });
    },

    /** Two-factor on: answers the ten recovery codes (the only time they are sent). */
    async verifyTwoFactor(code: string): Promise<string[]> {
      const answer = await parsed(TwoFactorEnabledSchema, PROFILE_API_FALLBACK.verifyTwoFactor, '/api/v2/user/2fa/verify', { method: 'POST', body: { code } });
      return answer.recovery_codes;
    },

    async recoveryCodesLeft(): Promise<number> {
      const status = await parsed(RecoveryCodesStatusSchema, PROFILE_API_FALLBACK.verifyTwoFactor, '/api/v2/user/2fa/recovery-codes', { method: 'GET' });
      return status.remaining;
    },

    /** A fresh set (a current TOTP code confirms); the old set dies. */
    async regenerateRecoveryCodes(code: string): Promise<string[]> {
      const answer = await parsed(TwoFactorEnabledSchema, PROFILE_API_FALLBACK.regenerateRecoveryCodes, '/api/v2/user/2fa/recovery-codes', { method: 'POST', body: { code } });
      return answer.recovery_codes;
    },

    async disableTwoFactor(code: string): Promise<void> {
      await data(PROFILE_API_FALLBACK.disableTwoFactor, '/api/v2/user/2fa/disable', { method: 'DELETE', body: { code } });
    },

    async documentTypes(): Promise<DocumentTypeInfo[]> {
      const value = await data(PROFILE_API_FALLBACK.loadDocuments, '/api/v2/documents/types', { method: 'GET' });
      return checked(v.array(DocumentTypeInfoSchema), PROFILE_API_FALLBACK.loadDocuments, get(value, 'types'), value);
    },

    async listDocuments(): Promise<Document[]> {
      const value = await data(PROFILE_API_FALLBACK.loadDocuments, '/api/v2/user/documents', { method: 'GET' });
      return checked(v.array(DocumentSchema), PROFILE_API_FALLBACK.loadDocuments, get(value, 'documents'), value);
    },

    /** One document of `type` holding all the files (the server answers 201 {document}). */
    async uploadDocuments(type: string, files: readonly File[]): Promise<Document> {
      const form = new FormData();
      form.append('type', type);
      for (const file of files) form.append('files', file, file.name);
      const value = await data(PROFILE_API_FALLBACK.uploadDocuments, '/api/v2/documents/upload', { method: 'POST', body: form, timeout: UPLOAD_TIMEOUT_MS });
      return checked(DocumentSchema, PROFILE_API_FALLBACK.uploadDocuments, get(value, 'document'), value);
    },

    async deleteDocument(id: number): Promise<void> {
      await data(PROFILE_API_FALLBACK.deleteDocument, `/api/v2/documents/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
    },

    /** A stored file's bytes (owner only; the server answers the file itself, not an envelope). */
    async documentFile(documentId: number, fileId: number): Promise<Blob> {
      const body = await call(PROFILE_API_FALLBACK.download, `/api/v2/documents/${encodeURIComponent(String(documentId))}/files/${encodeURIComponent(String(fileId))}`, { method: 'GET' });
      if (!(body instanceof Blob)) throw unexpected(PROFILE_API_FALLBACK.download, body);
      return body;
    },

    /** POST /api/platform/auth/resend-verification (no bearer; the same answer for every address). */
    async resendVerification(email: string): Promise<void> {
      await data(PROFILE_API_FALLBACK.resendVerification, '/api/platform/auth/resend-verification', { method: 'POST', body: { email }, auth: false });
    },

    telegramStatus(): Promise<TelegramStatus> {
      return parsed(TelegramStatusSchema, PROFILE_API_FALLBACK.telegram, '/api/v2/telegram/link', { method: 'GET' });
    },

    createTelegramLink(): Promise<TelegramLinkCode> {
      return parsed(TelegramLinkCodeSchema, PROFILE_API_FALLBACK.telegram, '/api/v2/telegram/link', { method: 'POST', body: {} });
    },

    unlinkTelegram(): Promise<TelegramStatus> {
      return parsed(TelegramStatusSchema, PROFILE_API_FALLBACK.telegram, '/api/v2/telegram/unlink', { method: 'POST', body: {} });
    },
  };
}

export type ProfileApi = ReturnType<typeof createProfileApi>;
