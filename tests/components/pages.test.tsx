/**
 * Public pages: the home page's calls to action and content, and the privacy and rules
 * documents: every table-of-contents link points at a section on the page, contact
 * addresses are mailto links, and every text resolves in each language (no raw keys).
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { HomePage } from '../../src/features/home/HomePage';
import { PrivacyPage, PRIVACY_SECTIONS } from '../../src/features/legal/PrivacyPage';
import { RulesPage, RULES_SECTIONS } from '../../src/features/legal/RulesPage';
import { parseLegalBlocks } from '../../src/features/legal/LegalDocument';
import { I18nProvider } from '../../src/i18n';

const LANGS = ['en', 'ru', 'es'] as const;

describe('HomePage', () => {
  it('invites visitors to register and log in', () => {
    render(<HomePage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Know your payout');
    const register = screen.getAllByRole('link', { name: 'Create account' });
    expect(register.length).toBeGreaterThan(0);
    for (const link of register) expect(link.getAttribute('href')).toBe('/auth?mode=register');
    const login = screen.getAllByRole('link', { name: 'Log in' });
    for (const link of login) expect(link.getAttribute('href')).toBe('/auth');
    expect(screen.getByRole('main')).toBeTruthy();
  });

  it('leads a logged-out visitor from the logo to /auth (spec section 2)', () => {
    render(<HomePage />);
    expect(screen.getByRole('link', { name: 'TradeTerminal, go to sign in' }).getAttribute('href')).toBe('/auth');
  });

  it('shows the four highlights, the demo amount and the risk warning', () => {
    render(<HomePage />);
    const features = screen.getByRole('heading', { name: 'Why traders choose TradeTerminal' }).closest('section')!;
    expect(within(features).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Live charts',
      'Demo account with $10,000',
      'Fast payouts',
      'Three languages',
    ]);
    expect(screen.getByText(/You must be 18 or older/)).toBeTruthy();
    expect(screen.getByText('Trading bots').closest('li')!.textContent).toContain('Under development');
    for (const link of screen.getAllByRole('link', { name: 'Privacy policy' })) expect(link.getAttribute('href')).toBe('/privacy');
    for (const link of screen.getAllByRole('link', { name: 'Terms of service' })) expect(link.getAttribute('href')).toBe('/rules');
  });

  it('sends signed-in users to trading and leaves the header and <main> to the shell', () => {
    render(<HomePage isAuthenticated />);
    expect(screen.getByRole('link', { name: /Go to trading/ }).getAttribute('href')).toBe('/trading');
    expect(screen.queryByRole('link', { name: 'Create account' })).toBeNull();
    expect(screen.queryByRole('main')).toBeNull();
  });

  it.each(LANGS)('renders fully translated in %s', (lang) => {
    const { container } = render(
      <I18nProvider language={lang}>
        <HomePage headerExtras={<span>LANG-SLOT</span>} />
      </I18nProvider>,
    );
    expect(container.textContent).not.toMatch(/\b(home|nav|common)\.[a-z_]+/);
    expect(screen.getByText('LANG-SLOT')).toBeTruthy();
  });
});

describe('parseLegalBlocks', () => {
  it('splits paragraphs on blank lines and groups "- " lines into lists', () => {
    expect(parseLegalBlocks('Intro:\n- one\n- two\n\nAfter.')).toEqual([
      { kind: 'p', text: 'Intro:' },
      { kind: 'ul', items: ['one', 'two'] },
      { kind: 'p', text: 'After.' },
    ]);
  });
});

describe.each([
  ['PrivacyPage', PrivacyPage, PRIVACY_SECTIONS, 'Privacy policy'],
  ['RulesPage', RulesPage, RULES_SECTIONS, 'Terms of service'],
] as const)('%s', (_name, Page, sections, title) => {
  it('has a title, a date and a table of contents whose links all land on a section', () => {
    const { container } = render(<Page />);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(screen.getByText(/Last updated: /)).toBeTruthy();
    const toc = screen.getByRole('navigation', { name: 'Contents' });
    const links = within(toc).getAllByRole('link');
    expect(links).toHaveLength(sections.length);
    for (const link of links) {
      const id = link.getAttribute('href')!.replace(/^#/, '');
      const target = container.querySelector(`[id="${id}"]`);
      expect(target, id).not.toBeNull();
      expect(target!.tagName).toBe('SECTION');
      expect(within(target as HTMLElement).getByRole('heading', { level: 2 }).textContent).toContain(link.textContent!);
    }
  });

  it('links the contact address with mailto', () => {
    render(<Page />);
    const mail = screen.getAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('mailto:'));
    expect(mail.length).toBeGreaterThan(0);
    expect(mail[0].textContent).toMatch(/@/);
  });

  it.each(LANGS)('every text resolves in %s', (lang) => {
    const { container } = render(
      <I18nProvider language={lang}>
        <Page />
      </I18nProvider>,
    );
    expect(container.textContent).not.toMatch(/\blegal\.[a-z_.]+/);
    expect(container.querySelectorAll('section')).toHaveLength(sections.length);
    expect(container.querySelectorAll('section li').length).toBeGreaterThan(5);
  });
});

it('the rules state the age limit and the settlement rules', () => {
  const { container } = render(<RulesPage />);
  const text = container.textContent!;
  expect(text).toMatch(/at least 18 years old/);
  expect(text).toMatch(/from 5 seconds to 4 hours/);
  expect(text).toMatch(/amount × \(1 \+ payout rate\)/);
  expect(text).toMatch(/margin of 5%/);
  expect(text).toMatch(/10,000/);
});
