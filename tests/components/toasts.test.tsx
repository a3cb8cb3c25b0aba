/**
 * ToastViewport: errors in an assertive alert region, the rest in a polite status region;
 * a click anywhere on a toast or on its close button dismisses it. It renders on <body> (above
 * every overlay), shows at most 3 (2 on phones) with the rest counted, and a click on a toast
 * over an open dialog dismisses the toast without closing the dialog.
 */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '../../src/components/Modal';
import { ToastViewport, type ToastItem } from '../../src/components/Toasts';

const toasts: ToastItem[] = [
  { id: 't1', type: 'success', text: 'Order opened' },
  { id: 't2', type: 'error', text: 'Deposit Failed!' },
  { id: 't3', type: 'warning', text: 'Reconnecting to the price feed' },
];

describe('ToastViewport', () => {
  it('puts errors in role=alert and the others in role=status', () => {
    render(<ToastViewport toasts={toasts} onDismiss={() => undefined} />);
    const alert = screen.getByRole('alert');
    const status = screen.getByRole('status');
    expect(alert.getAttribute('aria-live')).toBe('assertive');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(within(alert).getByText('Deposit Failed!')).toBeTruthy();
    expect(within(status).getByText('Order opened')).toBeTruthy();
    expect(within(status).getByText('Reconnecting to the price feed')).toBeTruthy();
    expect(within(status).queryByText('Deposit Failed!')).toBeNull();
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
  });

  it('keeps the live regions present when there are no toasts', () => {
    render(<ToastViewport toasts={[]} onDismiss={() => undefined} />);
    expect(screen.getByRole('alert').textContent).toBe('');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('dismisses a toast when it is clicked', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    render(<ToastViewport toasts={toasts} onDismiss={onDismiss} />);
    await user.click(screen.getByText('Order opened'));
    expect(onDismiss).toHaveBeenCalledWith('t1');
  });

  it('dismisses once with the keyboard-reachable close button', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    render(<ToastViewport toasts={[toasts[1]]} onDismiss={onDismiss} />);
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(onDismiss).toHaveBeenCalledWith('t2');
  });

  it('shows the kind in text, not only by colour', () => {
    render(<ToastViewport toasts={[toasts[1]]} onDismiss={() => undefined} />);
    expect(screen.getByRole('alert').textContent).toContain('Error: Deposit Failed!');
  });

  it('renders in a portal on <body>, outside the app root', () => {
    const { container } = render(<ToastViewport toasts={toasts} onDismiss={() => undefined} />);
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(container.contains(region)).toBe(false);
    expect(region.parentElement).toBe(document.body);
  });

  it('shows the newest three, counts the older ones, and marks which kind is newest', () => {
    const many: ToastItem[] = Array.from({ length: 5 }, (_, i) => ({ id: `n${i}`, type: i === 4 ? 'error' : 'success', text: `Toast ${i}` }));
    render(<ToastViewport toasts={many} onDismiss={() => undefined} />);
    expect(screen.queryByText('Toast 0')).toBeNull();
    expect(screen.queryByText('Toast 1')).toBeNull();
    expect(screen.getByText('Toast 2')).toBeTruthy();
    expect(screen.getByText('Toast 4')).toBeTruthy();
    expect(screen.getByTestId('toast-more').textContent).toBe('+2 more');
    expect(screen.getByRole('region', { name: 'Notifications' }).getAttribute('data-newest')).toBe('error');
  });

  it('keeps to the given limit (two on phones)', () => {
    render(<ToastViewport toasts={toasts} onDismiss={() => undefined} limit={2} />);
    expect(screen.queryByText('Order opened')).toBeNull();
    expect(screen.getByText('Deposit Failed!')).toBeTruthy();
    expect(screen.getByText('Reconnecting to the price feed')).toBeTruthy();
    expect(screen.getByTestId('toast-more').textContent).toBe('+1 more');
  });

  it('dismisses a toast over an open dialog without closing the dialog', async () => {
    // The dialog sets pointer-events: none on <body>; Toasts.css gives toasts pointer-events:
    // auto, which jsdom does not apply, so the check is off here (the browser tests click for real).
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const onDismiss = vi.fn();
    function Screen() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <Modal open={open} onOpenChange={setOpen} title="Deposit">
            <p>Amount</p>
          </Modal>
          <ToastViewport toasts={[toasts[0]]} onDismiss={onDismiss} />
        </>
      );
    }
    render(<Screen />);
    expect(screen.getByRole('dialog', { name: 'Deposit' })).toBeTruthy();
    await user.click(screen.getByText('Order opened'));
    expect(onDismiss).toHaveBeenCalledWith('t1');
    expect(screen.getByRole('dialog', { name: 'Deposit' })).toBeTruthy();
  });
});
