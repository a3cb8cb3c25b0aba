/**
 * The profile screen's personal data (profile.machine) and its flow parent (profilePage):
 * generated paths with full coverage, then behaviour with stub actors: load, retry, a save
 * that passes the server's schema, one refused before any request, the server's field
 * details kept, the fallback locale key when the server gives no text; the flow spawning its
 * five sections and passing their requests up. Plus the form rules and the patch builder.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { createActor, createMachine, fromPromise, setup, spawnChild, waitFor, type AnyActorRef, type AnyEventObject, type EventObject } from 'xstate';
import type { PersonalDataInput, Profile } from '../../contract/profile';
import { FieldText } from '../../contract/auth';
import { profileMachine, type SavePersonalDataInput } from '../../machines/profile/profile.machine';
import { profilePageMachine, PROFILE_SECTIONS } from '../../machines/profile/profile-page.machine';
import { personalDataPatch, personalFormSchema, personalFormValues } from '../../machines/profile/profile.schemas';
import { failureText, isLocaleKey, isShownAtField, serverFieldErrors, toastOf } from '../../machines/profile/feedback';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { makeProfile, makeUser } from './fixtures';


const profile = makeProfile();
const saved = makeProfile({ nickname: 'ada_l', timezone: 'Europe/London' });
const goodPatch: PersonalDataInput = { nickname: 'ada_l', timezone: 'Europe/London' };
const badPatch: PersonalDataInput = { birthday: '2019-02-03' };

const events: AnyEventObject[] = [
  { type: 'profile.retryRequested' },
  { type: 'profile.saveRequested', patch: goodPatch },
  { type: 'profile.saveRequested', patch: badPatch },
  { type: 'xstate.done.actor.loadProfile', output: profile },
  { type: 'xstate.error.actor.loadProfile', error: { message: 'Request failed' } },
  { type: 'xstate.error.actor.loadProfile', error: {} },
  { type: 'xstate.done.actor.savePersonalData', output: saved },
  {
    type: 'xstate.error.actor.savePersonalData',
    error: { message: 'Nickname is already taken', details: [{ field: 'nickname', message: 'Nickname is already taken' }] },
  },
  { type: 'xstate.error.actor.savePersonalData', error: {} },
];
const model: PathModel = { name: 'profile', machine: profileMachine, events, simplePathEvents: [events[0], events[1], events[3], events[4], events[6], events[8]] };

describe('profile machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('profile'));
});

const pageEvents: AnyEventObject[] = [
  { type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.personal.saved' } },
  { type: 'session.userRefreshRequested' },
];
const pageModel: PathModel = { name: 'profilePage', machine: profilePageMachine, events: pageEvents };

describe('profile page flow paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(pageModel))('%s', (_, path) => {
    const { parentEvents } = replayPath(pageModel, path);
    expect(parentEvents).toEqual(path.steps.slice(1).map((s) => s.event));
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('profilePage'));
});

function startProfile(load: () => Promise<Profile>, save: (input: SavePersonalDataInput) => Promise<Profile>) {
  const saves: SavePersonalDataInput[] = [];
  const machine = profileMachine.provide({
    actors: {
      loadProfile: fromPromise<Profile, void>(() => load()),
      savePersonalData: fromPromise<Profile, SavePersonalDataInput>(({ input }) => {
        saves.push(input);
        return save(input);
      }),
    },
  });
  return { ...startUnderParent(machine), saves };
}

describe('personal data', () => {
  it('loads the profile, saves a valid change and toasts', async () => {
    const { actor, saves, parentEvents } = startProfile(
      () => Promise.resolve(profile),
      () => Promise.resolve(saved),
    );
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    expect(actor.getSnapshot().context.profile).toEqual(profile);
    actor.send({ type: 'profile.saveRequested', patch: goodPatch });
    expect(actor.getSnapshot().value).toEqual({ ready: 'saving' });
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    expect(saves).toEqual([{ patch: goodPatch }]);
    expect(actor.getSnapshot().context.profile).toEqual(saved);
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.personal.saved' } }]);
  });

  it('refuses what the server would refuse without sending it', async () => {
    const { actor, saves } = startProfile(
      () => Promise.resolve(profile),
      () => Promise.resolve(saved),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'profile.saveRequested', patch: badPatch });
    actor.send({ type: 'profile.saveRequested', patch: { gender: 'robot' } as unknown as PersonalDataInput });
    actor.send({ type: 'profile.saveRequested', patch: {} });
    expect(saves).toEqual([]);
    expect(actor.getSnapshot().context.fieldErrors).toEqual([{ field: '', message: 'At least one field is required' }]);
    actor.send({ type: 'profile.saveRequested', patch: badPatch });
    expect(actor.getSnapshot().context.fieldErrors).toEqual([{ field: 'birthday', message: 'You must be at least 18 years old' }]);
  });

  it('keeps the server text and its field details, or falls back to the locale key', async () => {
    let attempt = 0;
    const { actor } = startProfile(
      () => Promise.resolve(profile),
      () => {
        attempt += 1;
        return Promise.reject(
          attempt === 1
            ? Object.assign(new Error('Nickname is already taken'), { details: [{ field: 'nickname', message: 'Nickname is already taken' }] })
            : new Error(''),
        );
      },
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'profile.saveRequested', patch: goodPatch });
    await waitFor(actor, (s) => s.context.saveError !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      saveError: 'Nickname is already taken',
      fieldErrors: [{ field: 'nickname', message: 'Nickname is already taken' }],
      profile,
    });
    actor.send({ type: 'profile.saveRequested', patch: goodPatch });
    expect(actor.getSnapshot().context.saveError).toBeNull();
    await waitFor(actor, (s) => s.context.saveError !== null);
    expect(actor.getSnapshot().context).toMatchObject({ saveError: 'profile.errors.update_failed', fieldErrors: [] });
  });

  it('waits in failed after a load error until Retry', async () => {
    let attempt = 0;
    const { actor } = startProfile(
      () => (++attempt === 1 ? Promise.reject(new Error('Request failed')) : Promise.resolve(profile)),
      () => Promise.resolve(saved),
    );
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.loadError).toBe('Request failed');
    actor.send({ type: 'profile.retryRequested' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.loadError).toBeNull();
  });
});

describe('profile page flow', () => {
  it('spawns the five sections with their systemIds and tells security whether two-factor is on', () => {
    // A host standing in for the app: a session whose user has two-factor on, and the flow.
    const heard: EventObject[] = [];
    const user = { ...makeUser(), two_factor_enabled: true };
    const host = setup({
      actors: { session: createMachine({ context: { user } }), page: profilePageMachine },
    }).createMachine({
      entry: [spawnChild('session', { systemId: 'session' }), spawnChild('page', { id: 'page', systemId: 'profilePage' })],
      on: {
        '*': { actions: ({ event }) => heard.push(event) },
      },
    });
    const actor = createActor(host).start();
    const page = actor.system.get('profilePage') as AnyActorRef;
    for (const id of PROFILE_SECTIONS) {
      expect(actor.system.get(id)).toBeDefined();
      expect(actor.system.get(id)).toBe(page.getSnapshot().children[id]);
    }
    const security = actor.system.get('security') as AnyActorRef;
    expect(security.getSnapshot().value).toEqual({ password: 'idle', twoFactor: 'enabled' });

    page.send({ type: 'session.userRefreshRequested' });
    page.send({ type: 'toast.requested', toast: { type: 'info', messageKey: 'profile.personal.saved' } });
    expect(heard).toEqual([{ type: 'session.userRefreshRequested' }, { type: 'toast.requested', toast: { type: 'info', messageKey: 'profile.personal.saved' } }]);
    actor.stop();
    expect(security.getSnapshot().status).toBe('stopped');
  });

  it('starts two-factor as off when there is no session user', () => {
    const { actor } = startUnderParent(profilePageMachine);
    expect(actor.getSnapshot().children.security!.getSnapshot().value).toEqual({ password: 'idle', twoFactor: 'disabled' });
  });
});

describe('personal form rules', () => {
  const now = () => Date.parse('2026-01-15T12:00:00Z');
  const schema = personalFormSchema({ primaryEmail: 'Trader7@example.com', now });
  const values = personalFormValues(profile);
  const problems = (patch: Partial<typeof values>) => {
    const result = v.safeParse(schema, { ...values, ...patch }, { abortPipeEarly: true });
    return result.success ? [] : result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`);
  };

  it('accepts the stored profile and every optional field left empty', () => {
    expect(problems({})).toEqual([]);
  });

  it('checks the second email, age, time zone, country, nickname and passport as the server does', () => {
    expect(problems({ second_email: 'trader7@EXAMPLE.com' })).toEqual(['second_email: profile.validation.second_email_same']);
    expect(problems({ second_email: 'not-an-email' })).toEqual(['second_email: validation.email_invalid']);
    expect(problems({ birthday: '2008-01-16' })).toEqual(['birthday: profile.validation.too_young']);
    expect(problems({ birthday: '2008-01-15' })).toEqual([]);
    expect(problems({ birthday: '1905-01-01' })).toEqual(['birthday: profile.validation.too_old']);
    expect(problems({ birthday: '2001-02-30' })).toEqual(['birthday: profile.validation.date_invalid']);
    expect(problems({ timezone: 'Mars/Olympus' })).toEqual(['timezone: profile.validation.timezone_invalid']);
    expect(problems({ timezone: 'Asia/Tokyo' })).toEqual([]);
    expect(problems({ citizenship: 'XX' })).toEqual(['citizenship: profile.validation.country_invalid']);
    expect(problems({ citizenship: 'es' })).toEqual([]);
    expect(problems({ nickname: 'ab' })).toEqual(['nickname: profile.validation.nickname_length']);
    expect(problems({ nickname: 'two words' })).toEqual(['nickname: profile.validation.nickname_chars']);
    expect(problems({ gender: 'robot' })).toEqual(['gender: profile.validation.gender_invalid']);
    expect(problems({ phone: '12-34' })).toEqual([`phone: ${FieldText.phoneInvalid}`]);
    expect(problems({ first_name: '  ' })).toEqual([`first_name: ${FieldText.firstNameRequired}`]);
    expect(problems({ passport_issue_date: '2027-01-01' })).toEqual(['passport_issue_date: profile.validation.issue_date_future']);
    expect(problems({ birthday: '1990-05-05', passport_issue_date: '1989-01-01' })).toEqual(['passport_issue_date: profile.validation.issue_date_before_birthday']);
    expect(problems({ passport_number: '-AB' })).toEqual(['passport_number: profile.validation.passport_number_invalid']);
  });

  it('builds a patch of only what changed, with cleared optional fields as null', () => {
    const stored = makeProfile({ nickname: 'ada', timezone: 'Europe/London', passport: { number: 'X1', issued_by: 'HMPO', issue_date: '2020-01-01' } });
    const form = personalFormValues(stored);
    expect(personalDataPatch(form, stored)).toEqual({});
    expect(
      personalDataPatch({ ...form, first_name: ' Ada ', nickname: '', citizenship: 'gb', notify_sms: true, passport_issued_by: ' HM Passport Office ' }, stored),
    ).toEqual({
      nickname: null,
      citizenship: 'GB',
      notifications: { email: true, push: false, sms: true },
      passport_issued_by: 'HM Passport Office',
    });
  });
});

describe('failure texts', () => {
  it('tells locale keys from server sentences', () => {
    expect(isLocaleKey('profile.errors.update_failed')).toBe(true);
    expect(isLocaleKey('Invalid code')).toBe(false);
    expect(isLocaleKey('Unauthorized')).toBe(false);
    expect(failureText(new Error('Invalid code'), 'profile.errors.verify_2fa_failed')).toBe('Invalid code');
    expect(failureText(undefined, 'profile.errors.verify_2fa_failed')).toBe('profile.errors.verify_2fa_failed');
    expect(toastOf('error', 'Invalid code')).toEqual({ type: 'error', message: 'Invalid code' });
    expect(toastOf('error', 'profile.errors.avatar_failed')).toEqual({ type: 'error', messageKey: 'profile.errors.avatar_failed' });
  });

  it('puts a field sentence sent without details at its field, once, and says the form need not repeat it', () => {
    const taken = { field: 'nickname', message: 'Nickname is already taken' };
    expect(serverFieldErrors(new Error('Nickname is already taken'))).toEqual([taken]);
    expect(serverFieldErrors(Object.assign(new Error('Nickname is already taken'), { details: [taken] }))).toEqual([taken]);
    expect(serverFieldErrors(new Error('Profile update failed'))).toEqual([]);
    expect(isShownAtField('Nickname is already taken', [taken])).toBe(true);
    expect(isShownAtField('Profile update failed', [taken])).toBe(false);
    expect(isShownAtField(null, [taken])).toBe(false);
  });

  it('marks the nickname when the server refuses it without details', async () => {
    const { actor } = startProfile(
      () => Promise.resolve(profile),
      () => Promise.reject(new Error('Nickname is already taken')),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'profile.saveRequested', patch: goodPatch });
    await waitFor(actor, (s) => s.context.saveError !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      saveError: 'Nickname is already taken',
      fieldErrors: [{ field: 'nickname', message: 'Nickname is already taken' }],
    });
  });
});
