/**
 * Mutation check of the path harness (docs/mutation-check.md): broken copies of two machines,
 * and what catches them.
 *
 * - registration with a dropped transition (accountSettings no longer submits valid values);
 * - password reset with a wrong target (Back from the code step lands on the link-only
 *   password step instead of the email step);
 * and the opposite kind on each machine, so either kind is shown on both.
 *
 * For every mutant the reviewed paths (generated from the real machine, as the path tests do)
 * must fail on it, pointing at the step that takes the broken transition. Where the mutation
 * makes a state unreachable, the mutant's own generated paths must also fall short of 100 %
 * coverage. And its diagram must differ from the committed one, so the docs staleness test
 * fails too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { registrationMachine } from '../../machines/registration/registration.machine';
import { passwordResetMachine } from '../../machines/password-reset/password-reset.machine';
import type { PathModel } from '../machines/harness';
import { passwordResetEvents, registrationEvents as sharedRegistrationEvents } from '../machines/path-events';
import { checkMutant, dropTransition, formatReport, retarget, type MutantReport } from './mutate';

const registrationEvents = sharedRegistrationEvents;
const registration: PathModel = { name: 'registration', machine: registrationMachine, input: { language: 'es' }, events: registrationEvents, simplePaths: false };

const resetEvents = passwordResetEvents;
// By emailed code and by reset link: together they reach every state of the real machine.
const passwordReset: PathModel[] = [
  { name: 'passwordReset', machine: passwordResetMachine, input: {}, events: resetEvents, simplePaths: false },
  { name: 'passwordReset', machine: passwordResetMachine, input: { linkToken: 'link-tok' }, events: resetEvents, simplePaths: false },
];

const reports: MutantReport[] = [];
afterAll(() => console.log(['Mutation check:', ...reports.map(formatReport)].join('\n')));

describe('mutation check: the path harness catches broken machines', () => {
  it('registration, dropped transition: accountSettings no longer submits', () => {
    const mutant = dropTransition(registrationMachine, ['accountSettings'], 'registration.stepSubmitted', 0);
    const report = checkMutant([registration], 'registration: dropped accountSettings -> submitting', mutant);
    reports.push(report);
    expect(report.failedPaths).toBeGreaterThan(0);
    expect(report.firstFailure).toMatch(/registration\.stepSubmitted/);
    // Nothing else leads to submitting: the mutant's own paths cannot reach it.
    expect(report.missingStates).toEqual(['submitting', 'registered']);
    expect(report.diagramChanged).toBe(true);
  });

  it('password reset, wrong target: Back from the code step goes to choosingPassword', () => {
    const mutant = retarget(passwordResetMachine, ['enteringCode'], 'passwordReset.backRequested', 'choosingPassword');
    const report = checkMutant(passwordReset, 'passwordReset: enteringCode Back -> choosingPassword (should be enteringEmail)', mutant);
    reports.push(report);
    expect(report.failedPaths).toBeGreaterThan(0);
    expect(report.firstFailure).toMatch(/passwordReset\.backRequested/);
    // Every state and transition stays reachable: only the reviewed paths (and the diagram) show the bug.
    expect(report.missingStates).toEqual([]);
    expect(report.missingTransitions).toEqual([]);
    expect(report.diagramChanged).toBe(true);
  });

  it('registration, wrong target: Back from accountSettings goes to basicInfo', () => {
    const mutant = retarget(registrationMachine, ['accountSettings'], 'registration.backRequested', 'basicInfo');
    const report = checkMutant([registration], 'registration: accountSettings Back -> basicInfo (should be personalDetails)', mutant);
    reports.push(report);
    expect(report.failedPaths).toBeGreaterThan(0);
    expect(report.firstFailure).toMatch(/registration\.backRequested/);
    expect(report.missingStates).toEqual([]);
    expect(report.missingTransitions).toEqual([]);
    expect(report.diagramChanged).toBe(true);
  });

  it('password reset, dropped transition: Back from the code step is ignored', () => {
    const mutant = dropTransition(passwordResetMachine, ['enteringCode'], 'passwordReset.backRequested');
    const report = checkMutant(passwordReset, 'passwordReset: dropped enteringCode Back', mutant);
    reports.push(report);
    expect(report.failedPaths).toBeGreaterThan(0);
    expect(report.firstFailure).toMatch(/passwordReset\.backRequested/);
    expect(report.diagramChanged).toBe(true);
  });

  // The baseline: a copy made with the same tools and no net change passes everything, so
  // what fails above is the mutation, not the copying or models that miss part of the machine.
  it.each([
    ['registration', [registration], retarget(retarget(registrationMachine, ['accountSettings'], 'registration.backRequested', 'basicInfo'), ['accountSettings'], 'registration.backRequested', 'personalDetails')],
    ['passwordReset', passwordReset, retarget(retarget(passwordResetMachine, ['enteringCode'], 'passwordReset.backRequested', 'choosingPassword'), ['enteringCode'], 'passwordReset.backRequested', 'enteringEmail')],
  ] as const)('finds nothing wrong with an unmodified copy of %s', (name, models, copy) => {
    const report = checkMutant([...models], `${name}: copy through the mutation tools`, copy);
    expect(report.failedPaths).toBe(0);
    expect(report.missingStates).toEqual([]);
    expect(report.missingTransitions).toEqual([]);
    expect(report.diagramChanged).toBe(false);
  });
});
