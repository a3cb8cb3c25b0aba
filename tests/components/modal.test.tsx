/**
 * Modal and Drawer (radix dialog): named by their title, close button named from the locale
 * files, close on Escape and on an overlay click, lock page scroll, give focus back to the
 * element that opened them, and refuse to close while not dismissible.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Modal } from '../../src/components/Modal';
import { Drawer } from '../../src/components/Drawer';

function ModalHarness({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open settings
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Settings" description="Change how the app looks" dismissible={dismissible}>
        <button type="button">Inside</button>
      </Modal>
    </>
  );
}

async function openModal(user: ReturnType<typeof userEvent.setup>) {
  const opener = screen.getByRole('button', { name: 'Open settings' });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Settings' });
  // Radix registers its outside-click listener on the next tick.
  await new Promise((r) => setTimeout(r, 0));
  return { opener, dialog };
}

describe('Modal', () => {
  it('is named by its title, described, and moves focus inside', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const { dialog } = await openModal(user);
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe('Change how the app looks');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('closes on Escape and returns focus to the opener', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const { opener } = await openModal(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('closes on an overlay click and returns focus', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const { opener } = await openModal(user);
    await user.click(screen.getByTestId('modal-overlay'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('closes with the close button', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    await openModal(user);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('locks page scroll while open and releases it after', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    expect(document.body.hasAttribute('data-scroll-locked')).toBe(false);
    await openModal(user);
    expect(document.body.hasAttribute('data-scroll-locked')).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.body.hasAttribute('data-scroll-locked')).toBe(false));
  });

  it('traps Tab inside the dialog', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const { dialog } = await openModal(user);
    for (let i = 0; i < 5; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('stays open on Escape and overlay click when not dismissible', async () => {
    const user = userEvent.setup();
    render(<ModalHarness dismissible={false} />);
    await openModal(user);
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('modal-overlay'));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Drawer', () => {
  function DrawerHarness() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Open menu
        </button>
        <Drawer open={open} onOpenChange={setOpen} title="Menu" side="left">
          <a href="/trading">Trading</a>
        </Drawer>
      </>
    );
  }

  it('opens as a named dialog, closes on Escape and on the overlay, and returns focus', async () => {
    const user = userEvent.setup();
    render(<DrawerHarness />);
    const opener = screen.getByRole('button', { name: 'Open menu' });
    await user.click(opener);
    expect(await screen.findByRole('dialog', { name: 'Menu' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);

    await user.click(opener);
    await screen.findByRole('dialog', { name: 'Menu' });
    await new Promise((r) => setTimeout(r, 0));
    await user.click(screen.getByTestId('drawer-overlay'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
