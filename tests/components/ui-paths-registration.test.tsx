/**
 * The registration machine's generated paths, replayed through the rendered wizard
 * (RegisterWizard on the real app machine, which spawns the real registration machine; only
 * the `register` call is a controlled stub). Each step is done the way a person does it: type
 * into the labelled fields, leave them, pick the currency, tick the terms, press Next / Back /
 * Create account; the server's answer resolves or rejects the `register` call. At every step the
 * screen must show the step's heading and place in the step indicator, the values kept by the
 * machine, the errors it holds, and the buttons of that step (busy while submitting).
 *
 * The form checks every step with the machine's own schemas before sending it, so the view can
 * only send valid steps: the paths use valid values (invalid ones are covered by the last test:
 * the field error shows and the wizard stays).
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { createActor, fromCallback, fromPromise, type AnyEventObject, type EventObject } from 'xstate';
import { appMachine, type AppInput } from '../../machines/app/app.machine';
import { withFeatures } from '../support/app-features';
import { registrationMachine, type RegistrationContext } from '../../machines/registration/registration.machine';
import { sessionMachine } from '../../machines/session/session.machine';
import { socketMachine } from '../../machines/socket/socket.machine';
import { RuntimeProvider } from '../../src/shared/runtime';
import type { AppRuntime } from '../../src/app/create-app-actor';
import { I18nProvider } from '../../src/i18n';
import { RegisterWizard } from '../../src/features/auth/RegisterWizard';
import { collectTracking } from '../../src/features/auth/tracking';
import en from '../../locales/en.json';
import { generatePaths, type PathModel, type PathStep } from '../machines/harness';
import { makeUser } from '../machines/fixtures';
import { ControlledActors, allStateKeys, labelText, replayUiPath, type UiDriver, uiPathCases } from './ui-paths';

const basic = { username: 'trader7', email: 'trader7@example.com', password: 'Secret#123', password_confirmation: 'Secret#123' };
const personal = { first_name: 'Ann', last_name: 'Lee', phone: '+1 (555) 010-2030' };
const settings = { currency: 'EUR', terms_accepted: true };
const otherSettings = { currency: 'GBP', terms_accepted: true };

/** What the wizard can send in each step (each form sends its own step's values), and what the server can answer. */
const stepEvents: Record<string, AnyEventObject[]> = {
  basicInfo: [{ type: 'registration.stepSubmitted', values: basic }],
  personalDetails: [{ type: 'registration.stepSubmitted', values: personal }],
  accountSettings: [
    { type: 'registration.stepSubmitted', values: settings },
    { type: 'registration.stepSubmitted', values: otherSettings },
  ],
};
const common: AnyEventObject[] = [
  { type: 'registration.backRequested' },
  { type: 'xstate.done.actor.register', output: { token: 'tok-reg', refreshToken: 'ref-reg', user: makeUser() } },
  { type: 'xstate.error.actor.register', error: { message: 'Username is already taken' } },
  { type: 'xstate.error.actor.register', error: { message: 'Registration failed' } },
  {
    type: 'xstate.error.actor.register',
    error: { message: 'Validation failed', details: [{ field: 'email', message: 'Email is already registered' }] },
  },
];

const STEP_FIELDS = {
  basicInfo: [
    ['username', en.auth.username],
    ['email', en.auth.email],
    ['password', en.auth.password],
    ['password_confirmation', en.auth.password_confirmation],
  ],
  personalDetails: [
    ['first_name', en.auth.first_name],
    ['last_name', en.auth.last_name],
    ['phone', en.auth.phone],
  ],
} as const;
const STEPS = ['basicInfo', 'personalDetails', 'accountSettings'] as const;

function startWizard() {
  const controlled = new ControlledActors();
  const logic = appMachine.provide({
    actors: {
      ...withFeatures,
      registration: registrationMachine.provide({ actors: { register: controlled.logic('register') } }),
      session: sessionMachine.provide({ actors: { saveFrontSettings: fromPromise(() => new Promise(() => {})) } }),
      socket: socketMachine.provide({ actors: { socketConnection: fromCallback(() => {}) } }),
    },
  });
  const input: AppInput = { persistedSession: null, adminToken: null, storedLanguage: null, storedTheme: null, systemPrefersDark: true };
  const app = createActor(logic, { input }).start();
  const runtime = { actor: app, services: {} } as unknown as AppRuntime;
  const user = userEvent.setup();
  const view = render(
    <RuntimeProvider runtime={runtime}>
      <I18nProvider language="en">
        <RegisterWizard />
      </I18nProvider>
    </RuntimeProvider>,
  );
  // Unmount first (the wizard ends its flow), then stop the app.
  const stop = () => {
    view.unmount();
    app.stop();
  };
  return { app, controlled, user, stop, flow: () => app.getSnapshot().children.registration };
}

/** Replaces a field's text the way a person does, then leaves the field (validation runs on blur). */
async function retype(user: UserEvent, label: string, value: string) {
  const field = screen.getByLabelText(labelText(label), { selector: 'input' });
  await user.clear(field);
  if (value) {
    await user.click(field);
    await user.paste(value);
  }
  await user.tab();
}

function stepOf(value: string): number {
  return value === 'submitting' || value === 'registered' ? 2 : STEPS.indexOf(value as (typeof STEPS)[number]);
}

function driver(session: ReturnType<typeof startWizard>): UiDriver {
  const { user } = session;
  return {
    flow: session.flow,
    async perform(event: EventObject, before: PathStep) {
      const state = before.value as string;
      if (event.type === 'registration.backRequested') {
        await user.click(screen.getByRole('button', { name: en.common.back }));
        return;
      }
      if (event.type !== 'registration.stepSubmitted') throw new Error(`no UI action for ${event.type}`);
      const values = (event as unknown as { values: Record<string, string | boolean> }).values;
      if (state === 'basicInfo' || state === 'personalDetails') {
        for (const [name, label] of STEP_FIELDS[state]) await retype(user, label, String(values[name]));
        await user.click(screen.getByRole('button', { name: en.common.next }));
        return;
      }
      await user.selectOptions(screen.getByLabelText(labelText(en.auth.currency), { selector: 'select' }), String(values.currency));
      const terms = screen.getByRole('checkbox');
      if ((terms as HTMLInputElement).checked !== values.terms_accepted) await user.click(terms);
      await user.click(screen.getByRole('button', { name: en.auth.create_account }));
    },
    expectScreen(step: PathStep) {
      const state = step.value as string;
      const context = step.context as RegistrationContext;
      const index = stepOf(state);
      // The step indicator marks where the person is; the heading names the step.
      const indicator = screen.getByRole('list', { name: en.auth.registration_steps });
      const current = within(indicator)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-current'));
      expect(current).toEqual(STEPS.map((_, i) => (i === index ? 'step' : null)));
      expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(en.auth[`step_${STEPS[index]}`]);
      // The server's message, as it wrote it, and its field errors next to their fields.
      if (context.error) expect(screen.getByText(context.error)).toBeTruthy();
      for (const { message } of context.fieldErrors) expect(screen.getByText(message)).toBeTruthy();
      if (state === 'basicInfo' || state === 'personalDetails') {
        const kept = context.values[state] as Record<string, string>;
        for (const [name, label] of STEP_FIELDS[state]) {
          expect((screen.getByLabelText(labelText(label), { selector: 'input' }) as HTMLInputElement).value, `${label} keeps what was entered`).toBe(kept[name]);
        }
        expect(screen.getByRole('button', { name: en.common.next })).toBeTruthy();
        if (state === 'basicInfo') expect(screen.queryByRole('button', { name: en.common.back })).toBeNull();
        else expect(screen.getByRole('button', { name: en.common.back })).toBeTruthy();
      }
      if (state === 'accountSettings' || state === 'submitting') {
        const submitting = state === 'submitting';
        const create = screen.getByRole('button', { name: submitting ? en.auth.creating_account : en.auth.create_account });
        expect(create.getAttribute('aria-busy')).toBe(submitting ? 'true' : null);
        expect((create as HTMLButtonElement).disabled).toBe(submitting);
        expect((screen.getByRole('button', { name: en.common.back }) as HTMLButtonElement).disabled).toBe(submitting);
        const currency = context.values.accountSettings.currency || 'USD';
        expect((screen.getByLabelText(labelText(en.auth.currency), { selector: 'select' }) as HTMLSelectElement).value).toBe(currency);
      }
      if (state === 'registered') {
        // Handed to the session; the route guard takes the person to trading.
        expect(screen.getByRole('status').textContent).toContain(en.auth.creating_account);
        expect(screen.queryByRole('button', { name: en.common.back })).toBeNull();
      }
    },
  };
}

const model: PathModel = {
  name: 'registration (UI)',
  machine: registrationMachine,
  // What RegisterWizard starts the flow with in this document: the page's tracking, the locale's language.
  input: { tracking: collectTracking(), language: 'en' },
  events: (snapshot) => [...(stepEvents[snapshot.value as string] ?? []), ...common],
  simplePaths: false,
};
const paths = generatePaths(model);
const { cases } = uiPathCases(paths);
const visited = new Set<string>();

describe('registration paths through the wizard', () => {
  it.each(cases)('%s', async (_, path) => {
    const session = startWizard();
    try {
      for (const key of await replayUiPath(path, driver(session), { machine: registrationMachine, controlled: session.controlled })) visited.add(key);
    } finally {
      session.stop();
    }
  });

  it('went through every state of the machine on screen', () => {
    expect(allStateKeys(registrationMachine).filter((key) => !visited.has(key))).toEqual([]);
  });

  it('sends the values the person typed, with the tracking fields, in one request', async () => {
    const session = startWizard();
    const path = paths.find((p) => p.steps.at(-1)!.value === 'registered')!;
    await replayUiPath(path, driver(session), { machine: registrationMachine, controlled: session.controlled });
    expect(session.controlled.calls.map((c) => c.src)).toEqual(['register']);
    expect(session.controlled.calls[0].input).toEqual({ payload: expect.objectContaining({ ...basic, ...personal, phone: '+15550102030', language: 'en', terms_accepted: true }) });
    session.stop();
  });
});

describe('what the wizard refuses before the machine sees it', () => {
  it('shows the field error on leaving an invalid field and does not advance', async () => {
    const session = startWizard();
    const { user } = session;
    await retype(user, en.auth.username, 'ab');
    expect(await screen.findByText(en.validation.username_min_length)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: en.common.next }));
    expect(session.flow()!.getSnapshot().value).toBe('basicInfo');
    expect(session.flow()!.getSnapshot().context.values.basicInfo).toEqual({ username: '', email: '', password: '', password_confirmation: '' });
    session.stop();
  });

  it('says so when the confirmation does not match the password, and does not advance', async () => {
    const session = startWizard();
    const { user } = session;
    await retype(user, en.auth.username, basic.username);
    await retype(user, en.auth.email, basic.email);
    await retype(user, en.auth.password, basic.password);
    await retype(user, en.auth.password_confirmation, 'Other#123');
    await user.click(screen.getByRole('button', { name: en.common.next }));
    expect(await screen.findByText(en.validation.passwords_do_not_match)).toBeTruthy();
    expect(session.flow()!.getSnapshot().value).toBe('basicInfo');
    session.stop();
  });
});
