/**
 * The first page's parts around the prerender and the stored session:
 *   - /trading with a stored session shows the signed-in frame (header with the logo, the menu
 *     button disabled) while the session is checked, not a bare spinner (src/app/routes.tsx,
 *     ShellFrame);
 *   - markAppStarted (src/app/boot.ts) hands what was typed before the app started to the
 *     form's handlers and carries out the submit the boot script held back, once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createAppActor, type AppRuntime } from '../../src/app/create-app-actor';
import { AppRoot } from '../../src/app/AppRoot';
import { markAppStarted, PENDING_SUBMIT } from '../../src/app/boot';
import { createStorage } from '../../src/services/storage';
import { makeUser } from '../machines/fixtures';

let runtime: AppRuntime | null = null;
afterEach(() => {
  cleanup();
  runtime?.actor.stop();
  runtime = null;
  document.documentElement.removeAttribute('data-app');
  window.history.replaceState(null, '', '/');
});

describe('/trading with a stored session', () => {
  it('shows the signed-in frame while the session is checked', async () => {
    const data = new Map<string, string>([['auth', JSON.stringify({ token: 'tok', refreshToken: 'ref', user: makeUser(), isAuthenticated: true })]]);
    // An unreachable server: the session check stays pending or retried, the features never load.
    runtime = await createAppActor({
      window,
      baseURL: 'http://127.0.0.1:9',
      socketUrl: 'http://127.0.0.1:9',
      storage: createStorage({ getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }),
    });
    window.history.replaceState(null, '', '/trading');
    render(<AppRoot runtime={runtime} />);
    expect(await screen.findByRole('link', { name: 'TradeTerminal, go to trading' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open menu' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    expect(runtime.actor.getSnapshot().matches({ features: 'ready' })).toBe(false);
    // The route starts loading the shell, the trading page (not the chart library: the chart
    // panel loads it when it renders) and the
    // features ahead; let those imports finish before the environment is torn down (an import
    // still running then is an unhandled error that fails the whole run).
    await Promise.all([
      import('../../src/app/shell/AppShell'),
      import('../../src/features/trading/TradingPage'),
      import('../../src/services/feature-actors'),
      import('../../src/i18n/en-features'),
    ]);
  }, 30_000);
});

describe('markAppStarted', () => {
  function LoginLike({ onSubmit }: { onSubmit: (value: string) => void }) {
    const [value, setValue] = useState('');
    return (
      <div id="root" data-prerendered="auth">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(value);
          }}
        >
          <input aria-label="name" value={value} onChange={(event) => setValue(event.currentTarget.value)} />
        </form>
      </div>
    );
  }

  it('hands typed text to the form and submits the held-back form once', async () => {
    const submitted = vi.fn();
    render(<LoginLike onSubmit={submitted} />);
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'name' });
    // As after hydration over text typed earlier: React took the typed text as the field's value.
    input.value = 'demo';
    Reflect.set(window, PENDING_SUBMIT, input.form);
    await act(async () => markAppStarted(window));
    expect(submitted).toHaveBeenCalledTimes(1);
    expect(submitted).toHaveBeenCalledWith('demo');
    expect(document.documentElement.getAttribute('data-app')).toBe('started');
    expect(Reflect.has(window, PENDING_SUBMIT)).toBe(false);
    await act(async () => markAppStarted(window));
    expect(submitted).toHaveBeenCalledTimes(1);
  });
});
