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
  TelegramLinkCodeSchema,
  TelegramStatusSchema,
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
import { ApiError, type HttpClient, type RequestOptions } from './http';
import { withFallback } from './api';

export const PROFILE_API_FALLBACK = {
  ...PROFILE_FALLBACKS,
  download: 'profile.documents.download_failed',
} as const;

function get(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined;
}

/** A 2xx answer whose data does not have the promised shape. */
const unexpected = (fallback: string, body: unknown) => new ApiError(400, fallback, { serverMessage: null, body });

/**
 * Uploads send up to 5 x 10 MB (and the server decodes every file before answering): the
 * default 10 s API timeout would cut them off on an ordinary connection.
 */
export const UPLOAD_TIMEOUT_MS = 120_000;

export function createProfileApi(http: HttpClient) {
  /** The envelope's data of a successful call (success must be true). */
  async function data(fallback: string, path: string, options: RequestOptions): Promise<unknown> {
    let body: unknown;
    try {
      body = await http.request<unknown>(path, options);
    } catch (error) {
      throw withFallback(error, fallback);
    }
    if (get(body, 'success') !== true) throw unexpected(fallback, body);
    return get(body, 'data');
  }

  async function parsed<S extends v.GenericSchema>(schema: S, fallback: string, path: string, options: RequestOptions): Promise<v.InferOutput<S>> {
    const value = await data(fallback, path, options);
    const result = v.safeParse(schema, value);
    if (!result.success) throw unexpected(fallback, value);
    return result.output;
  }

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

    async verifyTwoFactor(code: string): Promise<void> {
      await data(PROFILE_API_FALLBACK.verifyTwoFactor, '/api/v2/user/2fa/verify', { method: 'POST', body: { code } });
    },

    async disableTwoFactor(code: string): Promise<void> {
      await data(PROFILE_API_FALLBACK.disableTwoFactor, '/api/v2/user/2fa/disable', { method: 'DELETE', body: { code } });
    },

    async documentTypes(): Promise<DocumentTypeInfo[]> {
      const value = await data(PROFILE_API_FALLBACK.loadDocuments, '/api/v2/documents/types', { method: 'GET' });
      const result = v.safeParse(v.array(DocumentTypeInfoSchema), get(value, 'types'));
      if (!result.success) throw unexpected(PROFILE_API_FALLBACK.loadDocuments, value);
      return result.output;
    },

    async listDocuments(): Promise<Document[]> {
      const value = await data(PROFILE_API_FALLBACK.loadDocuments, '/api/v2/user/documents', { method: 'GET' });
      const result = v.safeParse(v.array(DocumentSchema), get(value, 'documents'));
      if (!result.success) throw unexpected(PROFILE_API_FALLBACK.loadDocuments, value);
      return result.output;
    },

    /** One document of `type` holding all the files (the server answers 201 {document}). */
    async uploadDocuments(type: string, files: readonly File[]): Promise<Document> {
      const form = new FormData();
      form.append('type', type);
      for (const file of files) form.append('files', file, file.name);
      const value = await data(PROFILE_API_FALLBACK.uploadDocuments, '/api/v2/documents/upload', { method: 'POST', body: form, timeout: UPLOAD_TIMEOUT_MS });
      const result = v.safeParse(DocumentSchema, get(value, 'document'));
      if (!result.success) throw unexpected(PROFILE_API_FALLBACK.uploadDocuments, value);
      return result.output;
    },

    async deleteDocument(id: number): Promise<void> {
      await data(PROFILE_API_FALLBACK.deleteDocument, `/api/v2/documents/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
    },

    /** A stored file's bytes (owner only; the server answers the file itself, not an envelope). */
    async documentFile(documentId: number, fileId: number): Promise<Blob> {
      let body: unknown;
      try {
        body = await http.request<unknown>(`/api/v2/documents/${encodeURIComponent(String(documentId))}/files/${encodeURIComponent(String(fileId))}`, { method: 'GET' });
      } catch (error) {
        throw withFallback(error, PROFILE_API_FALLBACK.download);
      }
      if (!(body instanceof Blob)) throw unexpected(PROFILE_API_FALLBACK.download, body);
      return body;
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
