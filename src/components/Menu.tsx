/**
 * Menu and Dropdown, without extra packages.
 *
 * Menu follows the WAI-ARIA menu button pattern: a button (aria-haspopup, aria-expanded)
 * opens a role=menu list; arrow keys, Home and End move between items, Enter/Space choose,
 * Escape closes and returns focus to the button, Tab or a click outside closes. Items with
 * `checked` become menuitemradio (the language list).
 *
 * Dropdown is a disclosure: a button that shows a panel of arbitrary content (the profile
 * panel with links, the theme switch and the language menu). Escape or a click outside
 * closes it; the panel follows the button in the tab order.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { cx } from './cx';
import { useDismiss } from './hooks';
import './Menu.css';

export type MenuItem =
  | {
      id: string;
      label: string;
      onSelect: () => void;
      icon?: IconName;
      /** Makes the item a radio choice (aria-checked). */
      checked?: boolean;
      disabled?: boolean;
      danger?: boolean;
      separator?: undefined;
    }
  | { id: string; separator: true };

type Action = Extract<MenuItem, { onSelect: () => void }>;

export type MenuProps = {
  /** Accessible name of the menu. */
  label: string;
  /** Accessible name of the button when its content is not text (an icon, an avatar). */
  triggerLabel?: string;
  /**
   * Visible content of the button; defaults to the label text with a chevron. With custom
   * content the button is named "<label>: <content>" unless triggerLabel is given.
   */
  trigger?: ReactNode;
  items: readonly MenuItem[];
  align?: 'start' | 'end';
  placement?: 'bottom' | 'top';
  triggerClassName?: string;
  className?: string;
};

export function Menu({ label, triggerLabel, trigger, items, align = 'start', placement = 'bottom', triggerClassName, className }: MenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const actions = items.filter((i): i is Action => !i.separator);
  const enabled = actions.filter((i) => !i.disabled);

  const focusItem = (id: string | undefined) => {
    if (!id) return;
    const nodes = listRef.current?.querySelectorAll<HTMLElement>('[data-item-id]') ?? [];
    Array.from(nodes)
      .find((node) => node.dataset.itemId === id)
      ?.focus();
  };

  const openMenu = (which: 'first' | 'last' | 'checked') => {
    setOpen(true);
    const target =
      which === 'last' ? enabled[enabled.length - 1] : which === 'checked' ? (enabled.find((i) => i.checked) ?? enabled[0]) : enabled[0];
    // The list renders on the next commit; focus it then.
    requestAnimationFrame(() => focusItem(target?.id));
  };

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const dismiss = useCallback((reason: 'outside' | 'escape') => close(reason === 'escape'), [close]);
  useDismiss(open, [buttonRef, listRef], dismiss);

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openMenu(event.key === 'ArrowDown' ? 'first' : 'checked');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu('last');
    }
  };

  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = enabled.findIndex((i) => i.id === (document.activeElement as HTMLElement | null)?.dataset.itemId);
    const move = (index: number) => focusItem(enabled[(index + enabled.length) % enabled.length]?.id);
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        move(current + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        move(current < 0 ? enabled.length - 1 : current - 1);
        break;
      case 'Home':
        event.preventDefault();
        move(0);
        break;
      case 'End':
        event.preventDefault();
        move(enabled.length - 1);
        break;
      case 'Tab':
        close(false);
        break;
      default: {
        // Type-ahead: jump to the next item starting with the typed letter.
        if (event.key.length === 1 && /\S/.test(event.key)) {
          const letter = event.key.toLocaleLowerCase();
          const order = [...enabled.slice(current + 1), ...enabled.slice(0, current + 1)];
          const hit = order.find((i) => i.label.toLocaleLowerCase().startsWith(letter));
          if (hit) focusItem(hit.id);
        }
      }
    }
  };

  const select = (item: Action) => {
    if (item.disabled) return;
    close(true);
    item.onSelect();
  };

  return (
    <div className={cx('popover-anchor', className)}>
      <button
        ref={buttonRef}
        type="button"
        className={cx('menu-trigger', triggerClassName)}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={triggerLabel}
        onClick={() => (open ? close(false) : openMenu('checked'))}
        onKeyDown={onButtonKey}
      >
        {trigger ? (
          <>
            {/* "Language: English": the menu's name first, then the visible content. */}
            {triggerLabel ? null : <span className="visually-hidden">{`${label}:`}</span>}
            {triggerLabel ? null : ' '}
            {trigger}
          </>
        ) : (
          <>
            <span>{label}</span>
            <Icon name="chevron" size={16} />
          </>
        )}
      </button>
      {open ? (
        <ul
          ref={listRef}
          id={menuId}
          role="menu"
          aria-label={label}
          className={cx('popover', 'menu', `popover-${align}`, `popover-${placement}`)}
          onKeyDown={onListKey}
        >
          {items.map((item) =>
            item.separator ? (
              <li key={item.id} role="separator" className="menu-separator" />
            ) : (
              <li key={item.id} role="none">
                <button
                  type="button"
                  role={item.checked === undefined ? 'menuitem' : 'menuitemradio'}
                  aria-checked={item.checked === undefined ? undefined : item.checked}
                  aria-disabled={item.disabled || undefined}
                  tabIndex={-1}
                  data-item-id={item.id}
                  className={cx('menu-item', item.danger && 'menu-item-danger')}
                  onClick={() => select(item)}
                >
                  {item.icon ? <Icon name={item.icon} size={18} /> : null}
                  <span className="menu-item-label">{item.label}</span>
                  {item.checked ? <Icon name="check" size={16} className="menu-item-check" /> : null}
                </button>
              </li>
            ),
          )}
        </ul>
      ) : null}
    </div>
  );
}

export type DropdownProps = {
  /** Visible content of the button. */
  trigger: ReactNode;
  /** Accessible name of the button when its content is not text. */
  triggerLabel?: string;
  /** Accessible name of the panel. */
  label: string;
  children: ReactNode | ((close: () => void) => ReactNode);
  align?: 'start' | 'end';
  placement?: 'bottom' | 'top';
  triggerClassName?: string;
  className?: string;
  panelClassName?: string;
  /** Controlled open state (optional). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
};

export function Dropdown({
  trigger,
  triggerLabel,
  label,
  children,
  align = 'end',
  placement = 'bottom',
  triggerClassName,
  className,
  panelClassName,
  open: openProp,
  onOpenChange,
}: DropdownProps) {
  const [own, setOwn] = useState(false);
  const open = openProp ?? own;
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const setOpen = useCallback(
    (next: boolean) => {
      if (openProp === undefined) setOwn(next);
      onOpenChange?.(next);
    },
    [openProp, onOpenChange],
  );
  const close = useCallback(() => setOpen(false), [setOpen]);
  const dismiss = useCallback(
    (reason: 'outside' | 'escape') => {
      setOpen(false);
      if (reason === 'escape') buttonRef.current?.focus();
    },
    [setOpen],
  );
  useDismiss(open, [buttonRef, panelRef], dismiss);

  // Leaving the panel with Tab closes it, like leaving a menu.
  useEffect(() => {
    if (!open) return;
    const onFocus = (event: FocusEvent) => {
      const target = event.target as Node | null;
      if (target && !panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [open, setOpen]);

  return (
    <div className={cx('popover-anchor', className)}>
      <button
        ref={buttonRef}
        type="button"
        className={cx('menu-trigger', triggerClassName)}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={triggerLabel}
        onClick={() => setOpen(!open)}
      >
        {trigger}
      </button>
      {open ? (
        <div
          ref={panelRef}
          id={panelId}
          role="region"
          aria-label={label}
          className={cx('popover', 'dropdown-panel', `popover-${align}`, `popover-${placement}`, panelClassName)}
        >
          {typeof children === 'function' ? children(close) : children}
        </div>
      ) : null}
    </div>
  );
}
