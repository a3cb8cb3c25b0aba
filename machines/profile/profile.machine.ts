/**
 * Personal data of the profile screen: load the profile, save changes to it.
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId 'profile') and
 * stopped when the screen closes. `loading` fetches GET /api/v2/user/profile; a failure waits in
 * `failed` for `profile.retryRequested`. In `ready.idle` a `profile.saveRequested {patch}` that
 * passes the server's own schema (contract/profile.ts) goes to `ready.saving`; the answer (the
 * updated profile) replaces the one shown and a success toast says so; a refusal stays on the
 * form with the server's text (or "Profile update failed") and its per-field details.
 */
import * as v from 'valibot';
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { FieldError } from '../../contract/envelope';
import { PersonalDataSchema, type PersonalDataInput, type Profile } from '../../contract/profile';
import type { ToastRequest } from '../types';
import { failureText, fieldErrorsOf, PROFILE_FALLBACKS, serverFieldErrors } from './feedback';

export interface ProfileContext {
  profile: Profile | null;
  /** Why the profile could not be loaded (a server sentence or a locale key). */
  loadError: string | null;
  /** Why the last save failed. */
  saveError: string | null;
  /** Per-field problems of the last save (server details or the schema's). */
  fieldErrors: FieldError[];
}

export type ProfileEvent = { type: 'profile.retryRequested' } | { type: 'profile.saveRequested'; patch: PersonalDataInput };

export type ProfileParentEvent = { type: 'toast.requested'; toast: ToastRequest };

export interface SavePersonalDataInput {
  patch: PersonalDataInput;
}

function missing(name: string): never {
  throw new Error(`profileMachine: the "${name}" actor has no implementation; supply it with profileMachine.provide()`);
}

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
  },
  actors: {
    loadProfile: fromPromise<Profile, void>(() => missing('loadProfile')),
    savePersonalData: fromPromise<Profile, SavePersonalDataInput>(() => missing('savePersonalData')),
  },
  guards: {
    isPatchValid: ({ event }) => {
      assertEvent(event, 'profile.saveRequested');
      return v.is(PersonalDataSchema, event.patch);
    },
  },
  actions: {
    assignProfile: assign((_, profile: Profile) => ({ profile })),
    assignLoadError: assign((_, params: { message: string }) => ({ loadError: params.message })),
    clearLoadError: assign({ loadError: null }),
    startSave: assign({ saveError: null, fieldErrors: [] }),
    rejectPatch: assign(({ event }) => {
      assertEvent(event, 'profile.saveRequested');
      return { saveError: null, fieldErrors: fieldErrorsOf(PersonalDataSchema, event.patch) };
    }),
    assignSaveError: assign((_, params: { error: unknown }) => ({
      saveError: failureText(params.error, PROFILE_FALLBACKS.update),
      fieldErrors: serverFieldErrors(params.error),
    })),
    toastSaved: sendParent((): ProfileParentEvent => ({ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.personal.saved' } })),
  },
}).createMachine({
  id: 'profile',
  context: { profile: null, loadError: null, saveError: null, fieldErrors: [] },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: { target: 'ready', actions: [{ type: 'assignProfile', params: ({ event }) => event.output }, 'clearLoadError'] },
        onError: {
          target: 'failed',
          actions: { type: 'assignLoadError', params: ({ event }) => ({ message: failureText(event.error, PROFILE_FALLBACKS.load) }) },
        },
      },
    },
    failed: {
      description: 'The profile could not be loaded; the view offers Retry.',
      on: { 'profile.retryRequested': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'profile.saveRequested': [
              { guard: 'isPatchValid', target: 'saving', actions: 'startSave' },
              { description: 'The server would refuse it: show why without a request.', actions: 'rejectPatch' },
            ],
          },
        },
        saving: {
          invoke: {
            id: 'savePersonalData',
            src: 'savePersonalData',
            input: ({ event }) => {
              assertEvent(event, 'profile.saveRequested');
              return { patch: event.patch };
            },
            onDone: { target: 'idle', actions: [{ type: 'assignProfile', params: ({ event }) => event.output }, 'toastSaved'] },
            onError: { target: 'idle', actions: { type: 'assignSaveError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
