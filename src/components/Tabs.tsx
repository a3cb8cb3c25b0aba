/**
 * Tabs on @radix-ui/react-tabs (arrow keys move between tabs, Home/End jump, panels are
 * linked to their tabs). Give `items`; a panel shows the item's `content`, or the shared
 * `children` when the tabs act as a view switch over one list (orders: active / all).
 */
import * as RadixTabs from '@radix-ui/react-tabs';
import { useRef, type ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { cx } from './cx';
import { useScrollHints } from './hooks';
import './Tabs.css';

export type TabItem = {
  value: string;
  label: ReactNode;
  content?: ReactNode;
  icon?: IconName;
  /** A count or marker after the label (e.g. number of open orders). */
  badge?: ReactNode;
  disabled?: boolean;
};

export type TabsProps = {
  items: TabItem[];
  /** Accessible name of the tab list. */
  label: string;
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  /** Shared panel content for items without their own `content`. */
  children?: ReactNode;
  variant?: 'line' | 'pill';
  /** Stretch tabs to the full width (mobile, narrow panels). */
  fill?: boolean;
  className?: string;
};

export function Tabs({
  items,
  label,
  value,
  defaultValue,
  onValueChange,
  children,
  variant = 'line',
  fill = false,
  className,
}: TabsProps) {
  // A list wider than its box scrolls; an arrow shows on the side with more tabs.
  const listRef = useRef<HTMLDivElement>(null);
  useScrollHints(listRef, value);
  return (
    <RadixTabs.Root
      className={cx('tabs', className)}
      value={value}
      defaultValue={defaultValue ?? (value === undefined ? items[0]?.value : undefined)}
      onValueChange={onValueChange}
    >
      <RadixTabs.List ref={listRef} className={cx('tabs-list', 'scroll-hints', `tabs-${variant}`, fill && 'tabs-fill')} aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} disabled={item.disabled} className="tabs-trigger">
            {item.icon ? <Icon name={item.icon} size={16} /> : null}
            <span>{item.label}</span>
            {/* The space keeps "Active 3" apart in the accessible name; flex hides it visually. */}
            {item.badge !== undefined && item.badge !== null ? ' ' : null}
            {item.badge !== undefined && item.badge !== null ? <span className="tabs-badge tabular">{item.badge}</span> : null}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="tabs-panel">
          {item.content ?? children}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
