/**
 * The 3-step registration wizard (spec section 2, "Registration in 3 steps: basic info,
 * personal details, settings with currency"; section 5 rules; section 3 registration payload).
 *
 * Lifecycle: spawned per flow by the app (`flow.registrationStarted`, id and systemId
 * 'registration') and stopped by `flow.registrationEnded`. `basicInfo` -> `personalDetails` ->
 * `accountSettings` advance on `registration.stepSubmitted` only when the values pass the
 * step's schema (registration.schemas.ts); otherwise the step stays with `fieldErrors`. Back
 * goes one step up and the kept values show again. `submitting` invokes `register`; success
 * sends the parent `session.registered` and ends in `registered` (final); a failure returns to
 * `accountSettings` with the server's message, or to `basicInfo` when the message is about the
 * username or email.
 */
import * as v from 'valibot';
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { FieldErrorSchema, type FieldError } from '../../contract/envelope';
import { issuesToFieldErrors } from '../../contract/validation';
import type { Language } from '../../contract/user';
import { TRACKING_FIELDS, type TrackingField } from '../../contract/auth';
import { errorMessage, type AuthSession } from '../types';
import {
  AccountSettingsSchema,
  BasicInfoSchema,
  PersonalDetailsSchema,
  type AccountSettingsValues,
  type BasicInfoValues,
  type PersonalDetailsValues,
  type RegistrationDraft,
} from './registration.schemas';


export interface RegistrationInput {
  tracking?: Record<string, string>;
  language?: Language;
}

/** POST /api/platform/auth/register body. */
export type RegisterPayload = BasicInfoValues &
  PersonalDetailsValues &
  AccountSettingsValues & {
    language?: Language;
  } & Partial<Record<TrackingField, string>>;

export interface RegisterInput {
  payload: RegisterPayload;
}

export interface RegistrationContext {
  tracking: Record<string, string>;
  language: Language;
  /** Each step's values, kept so Back shows them again. */
  values: RegistrationDraft;
  /** The server's message after a failed submit. */
  error: string | null;
  /** Per-field problems of the last submitted step (messages are locale keys or server texts). */
  fieldErrors: FieldError[];
}

export type RegistrationEvent =
  | { type: 'registration.stepSubmitted'; values: Record<string, unknown> }
  | { type: 'registration.backRequested' };

export type RegistrationParentEvent = { type: 'session.registered' } & AuthSession;

const REGISTRATION_FALLBACK = 'Registration failed';

export const EMPTY_REGISTRATION_DRAFT: RegistrationDraft = {
  basicInfo: { username: '', email: '', password: '', password_confirmation: '' },
  personalDetails: { first_name: '', last_name: '', phone: '' },
  accountSettings: { currency: 'USD', terms_accepted: false },
};

function fieldErrorsOf(schema: v.GenericSchema, values: unknown): FieldError[] {
  const result = v.safeParse(schema, values, { abortPipeEarly: true });
  return result.success ? [] : issuesToFieldErrors(result.issues);
}

/** Field errors the server sent with a failure (the envelope's `details`), if any. */
function serverFieldErrors(error: unknown): FieldError[] {
  const details: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'details') : undefined;
  const parsed = v.safeParse(v.array(FieldErrorSchema), details);
  return parsed.success ? parsed.output : [];
}

/** A failure about the username or email belongs on the first step. */
export function isBasicInfoFailure(error: unknown): boolean {
  if (/user\s*name|e-?mail/i.test(errorMessage(error, ''))) return true;
  return serverFieldErrors(error).some((d) => d.field === 'username' || d.field === 'email');
}

function onlyTracking(tracking: Record<string, string>): Partial<Record<TrackingField, string>> {
  const picked: Partial<Record<TrackingField, string>> = {};
  for (const field of TRACKING_FIELDS) {
    const value = tracking[field];
    if (typeof value === 'string' && value !== '') picked[field] = value.slice(0, 2048);
  }
  return picked;
}

export function buildRegisterPayload(context: RegistrationContext): RegisterPayload {
  const basic = v.parse(BasicInfoSchema, context.values.basicInfo);
  const personal = v.parse(PersonalDetailsSchema, context.values.personalDetails);
  const settings = v.parse(AccountSettingsSchema, context.values.accountSettings);
  return { ...onlyTracking(context.tracking), ...basic, ...personal, ...settings, language: context.language };
}

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
  },
  actors: {
    register: fromPromise<AuthSession, RegisterInput>(() => {
      throw new Error('registrationMachine: the "register" actor has no implementation; supply it with registrationMachine.provide()');
    }),
  },
  guards: {
    isBasicInfoValid: ({ event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      return v.is(BasicInfoSchema, event.values);
    },
    isPersonalDetailsValid: ({ event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      return v.is(PersonalDetailsSchema, event.values);
    },
    isAccountSettingsValid: ({ event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      return v.is(AccountSettingsSchema, event.values);
    },
    isBasicInfoFailure: (_, params: { error: unknown }) => isBasicInfoFailure(params.error),
  },
  actions: {
    assignBasicInfo: assign(({ context, event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      const basicInfo = v.parse(BasicInfoSchema, event.values);
      return { values: { ...context.values, basicInfo }, fieldErrors: [], error: null };
    }),
    assignPersonalDetails: assign(({ context, event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      // Kept as typed (Back shows it again); the payload carries the contract's normalised phone.
      const { first_name, last_name } = v.parse(PersonalDetailsSchema, event.values);
      const phone = String(event.values.phone).trim();
      return { values: { ...context.values, personalDetails: { first_name, last_name, phone } }, fieldErrors: [], error: null };
    }),
    assignAccountSettings: assign(({ context, event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      const accountSettings = v.parse(AccountSettingsSchema, event.values);
      return { values: { ...context.values, accountSettings }, fieldErrors: [], error: null };
    }),
    rejectBasicInfo: assign(({ event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      return { fieldErrors: fieldErrorsOf(BasicInfoSchema, event.values) };
    }),
    rejectPersonalDetails: assign(({ event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      return { fieldErrors: fieldErrorsOf(PersonalDetailsSchema, event.values) };
    }),
    rejectAccountSettings: assign(({ event }) => {
      assertEvent(event, 'registration.stepSubmitted');
      return { fieldErrors: fieldErrorsOf(AccountSettingsSchema, event.values) };
    }),
    clearErrors: assign({ error: null, fieldErrors: [] }),
    assignFailure: assign((_, params: { error: unknown }) => ({
      error: errorMessage(params.error, REGISTRATION_FALLBACK),
      fieldErrors: serverFieldErrors(params.error),
    })),
    notifyRegistered: sendParent(
      (_, session: AuthSession): RegistrationParentEvent => ({
        type: 'session.registered',
        token: session.token,
        refreshToken: session.refreshToken,
        user: session.user,
      }),
    ),
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => ({
    tracking: input.tracking ?? {},
    language: input.language ?? 'en',
    values: EMPTY_REGISTRATION_DRAFT,
    error: null,
    fieldErrors: [],
  }),
  initial: 'basicInfo',
  states: {
    basicInfo: {
      on: {
        'registration.stepSubmitted': [
          { guard: 'isBasicInfoValid', target: 'personalDetails', actions: 'assignBasicInfo' },
          { actions: 'rejectBasicInfo' },
        ],
      },
    },
    personalDetails: {
      on: {
        'registration.stepSubmitted': [
          { guard: 'isPersonalDetailsValid', target: 'accountSettings', actions: 'assignPersonalDetails' },
          { actions: 'rejectPersonalDetails' },
        ],
        'registration.backRequested': { target: 'basicInfo', actions: 'clearErrors' },
      },
    },
    accountSettings: {
      on: {
        'registration.stepSubmitted': [
          { guard: 'isAccountSettingsValid', target: 'submitting', actions: 'assignAccountSettings' },
          { actions: 'rejectAccountSettings' },
        ],
        'registration.backRequested': { target: 'personalDetails', actions: 'clearErrors' },
      },
    },
    submitting: {
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({ payload: buildRegisterPayload(context) }),
        onDone: {
          target: 'registered',
          actions: { type: 'notifyRegistered', params: ({ event }) => event.output },
        },
        onError: [
          {
            guard: { type: 'isBasicInfoFailure', params: ({ event }) => ({ error: event.error }) },
            target: 'basicInfo',
            description: 'The username or email is the problem (e.g. already taken): back to the first step.',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'accountSettings',
            actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    registered: {
      type: 'final',
      description: 'The session has the new account; the app ends the flow.',
    },
  },
});
