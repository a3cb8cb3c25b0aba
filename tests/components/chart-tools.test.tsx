/**
 * The chart tools (issue 16) on the app actor: the type and indicators menus, the legend's
 * edit panel (periods checked, colours chosen) and remove buttons, the drawing tools with their
 * hint (Cancel, Escape, "At current price"), every change saved through the session as a
 * chart_setups patch for the pair on screen; names from the locale files (Russian too).
 */
import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChartLegend, ChartTools, DrawingHint } from '../../src/features/trading/chart/ChartTools';
import { setupOf } from '../../machines/chart-setup/chart-setup.machine';
import { startTradingApp } from './trading-harness';

function renderTools(language = 'en') {
  const app = startTradingApp();
  app.render(
    <>
      <ChartTools pairCode="EURUSD" />
      <ChartLegend pairCode="EURUSD" precision={5} />
      <DrawingHint pairCode="EURUSD" lastPrice={1.16021} />
    </>,
    language,
  );
  const setup = () => setupOf(app.child('chartSetup').getSnapshot().context.setups, 'EURUSD');
  /** What the session saved (its user's front settings take every change at once). */
  const saved = () => (app.child('session').getSnapshot().context as { user: { front_settings: { chart_setups?: unknown } } }).user.front_settings.chart_setups;
  return { app, setup, saved };
}

describe('chart tools', () => {
  it('switches the chart type and adds indicators from the menus, saving the pair setup', async () => {
    const user = userEvent.setup();
    const { setup, saved } = renderTools();
    const toolbar = screen.getByRole('toolbar', { name: 'Chart tools' });
    await user.click(within(toolbar).getByRole('button', { name: /Chart type/ }));
    await user.click(screen.getByRole('menuitemradio', { name: 'Bars' }));
    expect(setup().type).toBe('bars');
    expect(saved()).toEqual({ EURUSD: { type: 'bars', studies: [], drawings: [] } });
    await user.click(within(toolbar).getByRole('button', { name: /Indicators/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Bollinger Bands' }));
    await user.click(within(toolbar).getByRole('button', { name: /Indicators/ }));
    await user.click(screen.getByRole('menuitem', { name: 'MACD' }));
    const legend = screen.getByRole('list', { name: 'Indicators and drawings on the chart' });
    expect(within(legend).getByText('BB 20, 2')).toBeTruthy();
    expect(within(legend).getByText('MACD 12, 26, 9')).toBeTruthy();
    expect(setup().studies.map((s) => s.kind)).toEqual(['bollinger', 'macd']);
    expect(saved()).toEqual({ EURUSD: setup() });
  });

  it('edits periods and colour from the legend, refusing bad periods, and removes an indicator', async () => {
    const user = userEvent.setup();
    const { setup } = renderTools();
    const toolbar = screen.getByRole('toolbar', { name: 'Chart tools' });
    await user.click(within(toolbar).getByRole('button', { name: /Indicators/ }));
    await user.click(screen.getByRole('menuitem', { name: 'MACD' }));
    await user.click(screen.getByRole('button', { name: 'Edit MACD 12, 26, 9' }));
    const editor = screen.getByRole('region', { name: 'MACD 12, 26, 9 settings' });
    await user.clear(within(editor).getByLabelText('Fast'));
    await user.type(within(editor).getByLabelText('Fast'), '30');
    await user.click(within(editor).getByRole('button', { name: 'Apply' }));
    expect(within(editor).getByRole('alert').textContent).toBe('The fast period must be shorter than the slow one');
    expect(setup().studies[0]).toMatchObject({ fast: 12 });
    await user.clear(within(editor).getByLabelText('Fast'));
    await user.type(within(editor).getByLabelText('Fast'), '8');
    await user.click(within(within(editor).getByRole('group', { name: 'Colour' })).getByRole('radio', { name: 'Green' }));
    await user.click(within(editor).getByRole('button', { name: 'Apply' }));
    expect(setup().studies[0]).toMatchObject({ kind: 'macd', fast: 8, slow: 26, signal: 9, color: '#9ccc65' });
    expect(screen.queryByRole('region', { name: /settings/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove MACD 8, 26, 9' }));
    expect(setup().studies).toEqual([]);
    expect(screen.queryByRole('list', { name: 'Indicators and drawings on the chart' })).toBeNull();
  });

  it('draws a horizontal line at the current price from the keyboard, cancels a tool with Escape, removes a drawing', async () => {
    const user = userEvent.setup();
    const { app, setup } = renderTools();
    const hline = screen.getByRole('button', { name: 'Horizontal line' });
    await user.click(hline);
    expect(hline.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('status').textContent).toContain('Click the chart where the line goes');
    await user.click(screen.getByRole('button', { name: 'At current price' }));
    expect(setup().drawings).toEqual([expect.objectContaining({ kind: 'hline', price: 1.16021 })]);
    expect(hline.getAttribute('aria-pressed')).toBe('false');
    const trend = screen.getByRole('button', { name: 'Trend line' });
    await user.click(trend);
    expect(screen.getByRole('status').textContent).toContain("Click the chart at the line's first point");
    act(() => app.child('chartSetup').send({ type: 'drawing.pointPicked', pairCode: 'EURUSD', point: { time: 60, price: 1.16 } }));
    expect(screen.getByRole('status').textContent).toContain('Now click its second point');
    await user.keyboard('{Escape}');
    expect(trend.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('status')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove Line at 1.16021' }));
    expect(setup().drawings).toEqual([]);
  });

  it('is translated (Russian)', async () => {
    const user = userEvent.setup();
    renderTools('ru');
    const toolbar = screen.getByRole('toolbar', { name: 'Инструменты графика' });
    await user.click(within(toolbar).getByRole('button', { name: /Индикаторы/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Индекс относительной силы (RSI)' }));
    expect(screen.getByRole('button', { name: 'Убрать RSI 14' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Горизонтальная линия' })).toBeTruthy();
  });
});
