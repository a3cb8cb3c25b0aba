/**
 * Menu (menu button pattern) and Dropdown (disclosure): keyboard operation, Escape returns
 * focus, outside clicks close, radio items expose aria-checked.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dropdown, Menu } from '../../src/components/Menu';

function LanguageMenu({ onSelect }: { onSelect: (lang: string) => void }) {
  return (
    <>
      <Menu
        label="Language"
        items={[
          { id: 'en', label: 'English', checked: true, onSelect: () => onSelect('en') },
          { id: 'ru', label: 'Русский', checked: false, onSelect: () => onSelect('ru') },
          { id: 'es', label: 'Español', checked: false, onSelect: () => onSelect('es') },
        ]}
      />
      <button type="button">Elsewhere</button>
    </>
  );
}

describe('Menu', () => {
  it('opens from the keyboard, moves with arrows, selects with Enter and returns focus', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<LanguageMenu onSelect={onSelect} />);
    const button = screen.getByRole('button', { name: 'Language' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');

    button.focus();
    await user.keyboard('{ArrowDown}');
    const menu = await screen.findByRole('menu', { name: 'Language' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'English' })));
    expect(screen.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe('true');
    expect(menu).toBeTruthy();

    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'Русский' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'Español' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'English' }));
    await user.keyboard('{ArrowUp}{Enter}');
    expect(onSelect).toHaveBeenCalledWith('es');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('closes on Escape with focus back on the button, and on an outside click', async () => {
    const user = userEvent.setup();
    render(<LanguageMenu onSelect={() => undefined} />);
    const button = screen.getByRole('button', { name: 'Language' });
    await user.click(button);
    await screen.findByRole('menu');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    await user.click(button);
    await screen.findByRole('menu');
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('Dropdown', () => {
  it('discloses its panel, closes on Escape (focus back) and from inside with close()', async () => {
    const user = userEvent.setup();
    render(
      <Dropdown trigger={<span aria-hidden="true">AB</span>} triggerLabel="Account menu" label="Account">
        {(close) => (
          <button type="button" onClick={close}>
            Profile
          </button>
        )}
      </Dropdown>,
    );
    const button = screen.getByRole('button', { name: 'Account menu' });
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region', { name: 'Account' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Account' })).toBeNull();
    expect(document.activeElement).toBe(button);

    await user.click(button);
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    expect(screen.queryByRole('region', { name: 'Account' })).toBeNull();
  });
});

it('a Menu with custom trigger content is named "<label>: <content>"', () => {
  render(<Menu label="Language" trigger={<span>English</span>} items={[{ id: 'en', label: 'English', onSelect: () => undefined }]} />);
  expect(screen.getByRole("button", { name: "Language: English" })).toBeTruthy();
});
