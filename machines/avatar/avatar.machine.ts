/**
 * The avatar of the profile screen: choose an image, see it, upload it.
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId 'avatar'),
 * stopped when it closes. `idle` -(avatar.fileChosen)-> `previewing` when the file is a JPEG,
 * PNG, WebP or GIF of at most 5 MB (otherwise `idle` says why); the view shows a preview with
 * Upload and Cancel. `avatar.uploadConfirmed` -> `uploading` (POST /api/v2/profile/avatar) ->
 * `idle` with a toast, and the session is asked to re-fetch the user so the header and the
 * profile panel show the new avatar_url; a failure returns to `previewing` with the server's
 * text or "Failed to upload avatar". The server checks the content again and re-encodes it.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { AVATAR_ACCEPTED, AVATAR_MAX_BYTES } from '../../contract/profile';
import type { ToastRequest } from '../types';
import { failureText, PROFILE_FALLBACKS } from '../profile/feedback';

/** What POST /api/v2/profile/avatar answers (contract/profile.ts, AvatarResultSchema). */
export interface AvatarResult {
  avatar_url: string;
}

export interface AvatarContext {
  /** The chosen image, held until it is uploaded or dropped. */
  file: File | null;
  /** Why the last file was refused or the upload failed (a locale key or a server sentence). */
  error: string | null;
}

export type AvatarEvent = { type: 'avatar.fileChosen'; file: File } | { type: 'avatar.uploadConfirmed' } | { type: 'avatar.cancelled' };

export type AvatarParentEvent = { type: 'toast.requested'; toast: ToastRequest } | { type: 'session.userRefreshRequested' };

export interface UploadAvatarInput {
  file: File;
}

/** Why a file cannot be an avatar (a locale key), or null when it can. */
export function avatarFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(AVATAR_ACCEPTED as readonly string[]).includes(file.type.toLowerCase())) return 'profile.avatar.type_invalid';
  if (file.size > AVATAR_MAX_BYTES) return 'profile.avatar.too_large';
  if (file.size === 0) return 'profile.avatar.empty';
  return null;
}

function missing(name: string): never {
  throw new Error(`avatarMachine: the "${name}" actor has no implementation; supply it with avatarMachine.provide()`);
}

export const avatarMachine = setup({
  types: {
    context: {} as AvatarContext,
    events: {} as AvatarEvent,
  },
  actors: {
    uploadAvatar: fromPromise<AvatarResult, UploadAvatarInput>(() => missing('uploadAvatar')),
  },
  guards: {
    isFileAcceptable: ({ event }) => {
      assertEvent(event, 'avatar.fileChosen');
      return avatarFileProblem(event.file) === null;
    },
  },
  actions: {
    assignFile: assign(({ event }) => {
      assertEvent(event, 'avatar.fileChosen');
      return { file: event.file, error: null };
    }),
    rejectFile: assign(({ event }) => {
      assertEvent(event, 'avatar.fileChosen');
      return { file: null, error: avatarFileProblem(event.file) };
    }),
    clear: assign({ file: null, error: null }),
    clearError: assign({ error: null }),
    assignError: assign((_, params: { error: unknown }) => ({ error: failureText(params.error, PROFILE_FALLBACKS.avatar) })),
    toastUploaded: sendParent((): AvatarParentEvent => ({ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.avatar.uploaded' } })),
    /** Spec section 8 "Avatar upload failed"; the reason stays under the preview. */
    toastUploadFailed: sendParent((): AvatarParentEvent => ({ type: 'toast.requested', toast: { type: 'error', messageKey: 'profile.avatar.upload_failed' } })),
    refreshUser: sendParent((): AvatarParentEvent => ({ type: 'session.userRefreshRequested' })),
  },
}).createMachine({
  id: 'avatar',
  context: { file: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'avatar.fileChosen': [{ guard: 'isFileAcceptable', target: 'previewing', actions: 'assignFile' }, { actions: 'rejectFile' }],
      },
    },
    previewing: {
      description: 'The view shows the chosen image with Upload and Cancel.',
      on: {
        'avatar.fileChosen': [{ guard: 'isFileAcceptable', actions: 'assignFile' }, { target: 'idle', actions: 'rejectFile' }],
        'avatar.uploadConfirmed': { target: 'uploading', actions: 'clearError' },
        'avatar.cancelled': { target: 'idle', actions: 'clear' },
      },
    },
    uploading: {
      invoke: {
        id: 'uploadAvatar',
        src: 'uploadAvatar',
        input: ({ context }) => {
          if (!context.file) throw new Error('avatarMachine: uploading without a file');
          return { file: context.file };
        },
        onDone: { target: 'idle', actions: ['clear', 'refreshUser', 'toastUploaded'] },
        onError: { target: 'previewing', actions: [{ type: 'assignError', params: ({ event }) => ({ error: event.error }) }, 'toastUploadFailed'] },
      },
    },
  },
});
