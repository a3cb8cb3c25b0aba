/**
 * AfterShell (src/app/routes.tsx): inside a shell that has just mounted, the page comes one
 * commit later (the spinner in its place first), so the shell's mount and the page's are two
 * tasks, not one; a page change inside a mounted shell shows no spinner.
 */
import { describe, expect, it } from 'vitest';
import { useLayoutEffect } from 'react';
import { render, screen } from '@testing-library/react';
import { AfterShell } from '../../src/app/routes';
import { I18nProvider } from '../../src/i18n';

describe('AfterShell', () => {
  it('shows the spinner at the first commit, the page after it, and no spinner on a page change', () => {
    // What the first commit put on screen (a layout effect runs before the passive effects of
    // that commit and before any later render; render() itself flushes all of them).
    let firstCommit: string | null = null;
    function Probe() {
      useLayoutEffect(() => {
        firstCommit ??= document.body.textContent;
      }, []);
      return null;
    }
    const view = render(
      <I18nProvider language="en">
        <AfterShell>
          <p>page one</p>
        </AfterShell>
        <Probe />
      </I18nProvider>,
    );
    expect(firstCommit).toContain('Loading');
    expect(firstCommit).not.toContain('page one');
    expect(screen.getByText('page one')).toBeTruthy();
    view.rerender(
      <I18nProvider language="en">
        <AfterShell>
          <p>page two</p>
        </AfterShell>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByText('page two')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
