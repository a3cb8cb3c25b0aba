/**
 * ConfirmDialog: default labels come from the locale files; while onConfirm's promise is
 * pending both buttons are disabled and the loading label shows; it closes only once the
 * promise resolves and stays open with the error when it rejects; external `loading`
 * disables the buttons too.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ConfirmDialog } from '../../src/components/ConfirmDialog';
import { I18nProvider } from '../../src/i18n';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Harness(props: { onConfirm: () => Promise<unknown> | void; loading?: boolean; onClosed?: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) props.onClosed?.();
      }}
      title="Close order?"
      message="You will receive $12.30."
      onConfirm={props.onConfirm}
      loading={props.loading}
    />
  );
}

const buttons = () => ({
  confirm: screen.getByRole('button', { name: /Confirm|Loading/ }) as HTMLButtonElement,
  cancel: screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement,
});

describe('ConfirmDialog', () => {
  it('uses the translated default labels and shows the message', async () => {
    render(
      <I18nProvider language="ru">
        <Harness onConfirm={() => undefined} />
      </I18nProvider>,
    );
    expect(await screen.findByRole('dialog', { name: 'Close order?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Подтвердить' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Отмена' })).toBeTruthy();
    expect(screen.getByText('You will receive $12.30.')).toBeTruthy();
  });

  it('disables both buttons and shows the loading label while pending, closes only after resolve', async () => {
    const user = userEvent.setup();
    const d = deferred();
    const onClosed = vi.fn();
    render(<Harness onConfirm={() => d.promise} onClosed={onClosed} />);
    await screen.findByRole('dialog');
    await user.click(buttons().confirm);

    const pending = buttons();
    expect(pending.confirm.disabled).toBe(true);
    expect(pending.cancel.disabled).toBe(true);
    expect(pending.confirm.textContent).toContain('Loading…');
    expect(pending.confirm.getAttribute('aria-busy')).toBe('true');
    // Escape does not close a dialog whose action is running.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(onClosed).not.toHaveBeenCalled();

    await act(async () => d.resolve());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onClosed).toHaveBeenCalledTimes(1);
  });

  it('stays open and shows the error when onConfirm rejects, then can retry', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn().mockRejectedValueOnce(new Error('Failed to close order')).mockResolvedValueOnce(undefined);
    render(<Harness onConfirm={onConfirm} />);
    await screen.findByRole('dialog');
    await user.click(buttons().confirm);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to close order');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(buttons().confirm.disabled).toBe(false);
    expect(buttons().cancel.disabled).toBe(false);

    await user.click(buttons().confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('falls back to "Operation failed" for a rejection without a message', async () => {
    const user = userEvent.setup();
    render(<Harness onConfirm={() => Promise.reject(undefined)} />);
    await screen.findByRole('dialog');
    await user.click(buttons().confirm);
    expect((await screen.findByRole('alert')).textContent).toContain('Operation failed');
  });

  it('disables the buttons when loading comes from outside', async () => {
    render(<Harness onConfirm={() => undefined} loading />);
    await screen.findByRole('dialog');
    expect(buttons().confirm.disabled).toBe(true);
    expect(buttons().cancel.disabled).toBe(true);
    expect(buttons().confirm.textContent).toContain('Loading…');
  });

  it('cancel closes without calling onConfirm', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await screen.findByRole('dialog');
    await user.click(buttons().cancel);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
