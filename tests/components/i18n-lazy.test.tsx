/**
 * Russian and Spanish load on demand (src/i18n loadLanguage): a switch keeps the previous language
 * on screen until the new one has loaded, then shows it. A fresh copy of the module, so nothing is
 * preloaded. (The first render in a language not loaded yet waits for it with Suspense; that path
 * is covered by the browser tests, which open the app in Russian.)
 */
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

type I18nModule = typeof import('../../src/i18n');
type Rtl = typeof import('@testing-library/react');

/** A fresh copy of the module, with React and the testing library from the same module registry. */
async function freshI18n(): Promise<{ m: I18nModule; rtl: Rtl }> {
  vi.resetModules();
  const rtl = await import('@testing-library/react');
  return { m: await import('../../src/i18n'), rtl };
}

function Retry({ useT }: { useT: I18nModule['useT'] }) {
  return <p>{useT()('common.retry')}</p>;
}

function tree(m: I18nModule, language: string): ReactNode {
  const Provider = m.I18nProvider as ComponentType<{ language: string; children: ReactNode }>;
  return (
    <Suspense fallback={<p>waiting</p>}>
      <Provider language={language}>
        <Retry useT={m.useT} />
      </Provider>
    </Suspense>
  );
}

describe('languages loaded on demand', () => {
  it('waits for the first language, then keeps the previous one until the next has loaded', async () => {
    const { m, rtl } = await freshI18n();
    const { render, screen } = rtl;
    expect(m.isLanguageLoaded('en')).toBe(true);
    expect(m.isLanguageLoaded('ru')).toBe(false);
    expect(m.isLanguageLoaded('es')).toBe(false);

    const view = render(tree(m, 'en'));
    expect(screen.getByText('Retry')).toBeTruthy();

    view.rerender(tree(m, 'ru'));
    // Not loaded yet: still English (the previous language, never the fallback), then Russian.
    expect(screen.getByText('Retry')).toBeTruthy();
    expect(screen.queryByText('waiting')).toBeNull();
    expect(await screen.findByText('Повторить')).toBeTruthy();
    expect(m.isLanguageLoaded('ru')).toBe(true);
    expect(m.isLanguageLoaded('es')).toBe(false);

    view.rerender(tree(m, 'es'));
    expect(screen.getByText('Повторить')).toBeTruthy();
    expect(await screen.findByText('Reintentar')).toBeTruthy();

    view.rerender(tree(m, 'en'));
    expect(screen.getByText('Retry')).toBeTruthy();
  });
});
