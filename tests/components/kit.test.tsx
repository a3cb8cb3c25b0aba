/**
 * The smaller pieces: Button loading state, IconButton naming, InfoChip kinds announced in
 * words, Tabs keyboard switching, SegmentedControl as a named radio group, Spinner status,
 * EmptyState action, Logo name.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button, IconButton } from '../../src/components/Button';
import { InfoChip } from '../../src/components/InfoChip';
import { Tabs } from '../../src/components/Tabs';
import { SegmentedControl } from '../../src/components/SegmentedControl';
import { Spinner } from '../../src/components/Spinner';
import { EmptyState } from '../../src/components/EmptyState';
import { Logo } from '../../src/components/Logo';
import { I18nProvider } from '../../src/i18n';

describe('Button', () => {
  it('disables and marks busy while loading, optionally with a loading label', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { rerender } = render(
      <Button variant="primary" onClick={onClick}>
        Deposit
      </Button>,
    );
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    rerender(
      <Button variant="primary" onClick={onClick} loading loadingLabel="Sending…">
        Deposit
      </Button>,
    );
    const busy = screen.getByRole('button', { name: 'Sending…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(busy.querySelector('.spinner')).not.toBeNull();
    await user.click(busy);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('up and down buttons carry their arrow', () => {
    render(
      <>
        <Button variant="up">Up</Button>
        <Button variant="down">Down</Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Up' }).querySelector('[data-icon="up"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Down' }).querySelector('[data-icon="down"]')).not.toBeNull();
    expect((screen.getByRole('button', { name: 'Up' }) as HTMLButtonElement).type).toBe('button');
  });

  it('IconButton is named by its label', () => {
    render(<IconButton icon="copy" label="Copy address" />);
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeTruthy();
  });
});

describe('InfoChip', () => {
  it.each([
    ['error', 'Error'],
    ['success', 'Success'],
    ['warning', 'Warning'],
    ['info', 'Information'],
  ] as const)('%s says its kind in words and has an icon', (kind, word) => {
    const { container } = render(<InfoChip kind={kind}>Payment failed!</InfoChip>);
    expect(container.textContent).toBe(`${word}: Payment failed!`);
    expect(container.querySelector('svg[data-icon]')).not.toBeNull();
  });

  it('announces errors as alerts when live', () => {
    render(
      <InfoChip kind="error" live>
        Deposit Failed!
      </InfoChip>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Deposit Failed!');
  });

  it('can be an inline badge with its own icon and no spoken prefix', () => {
    const { container } = render(
      <InfoChip kind="warning" compact inline prefix={false} icon="clock" status="pending">
        Pending
      </InfoChip>,
    );
    const chip = container.firstElementChild!;
    expect(chip.tagName).toBe('SPAN');
    expect(chip.getAttribute('data-status')).toBe('pending');
    expect(container.textContent).toBe('Pending');
    expect(container.querySelector('svg[data-icon="clock"]')).not.toBeNull();
    expect(container.querySelector('div')).toBeNull();
  });
});

describe('Tabs', () => {
  it('switches panels with the arrow keys', async () => {
    const user = userEvent.setup();
    render(
      <Tabs
        label="Orders"
        items={[
          { value: 'active', label: 'Active orders', content: <p>Active list</p> },
          { value: 'all', label: 'All orders', content: <p>All list</p> },
        ]}
      />,
    );
    expect(screen.getByRole('tablist', { name: 'Orders' })).toBeTruthy();
    expect(screen.getByRole('tabpanel').textContent).toBe('Active list');
    screen.getByRole('tab', { name: 'Active orders' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'All orders' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('All list');
  });

  it('shares one panel body when items have no content', async () => {
    const user = userEvent.setup();
    function Filtered() {
      const [tab, setTab] = useState('active');
      return (
        <Tabs
          label="Orders"
          value={tab}
          onValueChange={setTab}
          items={[
            { value: 'active', label: 'Active', badge: 3 },
            { value: 'all', label: 'All' },
          ]}
        >
          <p>Showing {tab}</p>
        </Tabs>
      );
    }
    render(<Filtered />);
    expect(screen.getByRole('tabpanel').textContent).toBe('Showing active');
    await user.click(screen.getByRole('tab', { name: 'All' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('Showing all');
    expect(screen.getByRole('tab', { name: 'Active 3' })).toBeTruthy();
  });
});

describe('SegmentedControl', () => {
  it('is a named radio group operated by keyboard', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <SegmentedControl
        label="Theme"
        value="dark"
        onChange={onChange}
        options={[
          { value: 'light', label: 'Light', icon: 'sun' },
          { value: 'dark', label: 'Dark', icon: 'moon' },
          { value: 'auto', label: 'Auto' },
        ]}
      />,
    );
    expect(screen.getByRole('group', { name: 'Theme' })).toBeTruthy();
    const dark = screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement;
    expect(dark.checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(onChange).toHaveBeenCalledWith('light');
  });
});

describe('Spinner, EmptyState, Logo', () => {
  it('spinner is a named status', () => {
    render(
      <I18nProvider language="ru">
        <Spinner />
      </I18nProvider>,
    );
    expect(screen.getByRole('status', { name: 'Загрузка…' })).toBeTruthy();
  });

  it('empty state shows what to do next', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <EmptyState
        icon="orders"
        title="No open orders"
        hint="Place your first trade"
        action={
          <Button variant="primary" onClick={onClick}>
            Trade now
          </Button>
        }
      />,
    );
    expect(screen.getByRole('heading', { name: 'No open orders' })).toBeTruthy();
    expect(screen.getByText('Place your first trade')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Trade now' }));
    expect(onClick).toHaveBeenCalled();
  });

  it('logo mark is an image named after the product', () => {
    render(<Logo variant="mark" />);
    expect(screen.getByRole('img', { name: 'TradeTerminal' })).toBeTruthy();
  });
});
