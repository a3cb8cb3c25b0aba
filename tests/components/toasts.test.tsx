/**
 * ToastViewport: errors in an assertive alert region, the rest in a polite status region;
 * a click anywhere on a toast or on its close button dismisses it.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
});
