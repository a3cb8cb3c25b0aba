/**
 * The price alert bell is on /trading's first frame, the priceAlerts actor is not: the app
 * machine spawns it a moment after the first frame's features (its `laterFeatures` region). Until
 * then the bell is there, shows no count and does not open (no error either: the bell used to
 * require the actor); once the actor is there it opens its dialog.
 */
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { waitFor as waitForActor } from 'xstate';
import { PriceAlertButton } from '../../src/features/trading/PriceAlerts';
import { startTradingApp } from './trading-harness';

describe('price alert bell before the priceAlerts actor is spawned', () => {
  it('is shown disabled until the actor is there, then opens', async () => {
    const user = userEvent.setup();
    const app = startTradingApp();
    app.feedPairs([], {});
    app.render(<PriceAlertButton pairCode="EURUSD" />);
    expect(app.actor.system.get('priceAlerts')).toBeUndefined();
    const bell = screen.getByRole<HTMLButtonElement>('button', { name: 'Price alerts' });
    expect(bell.disabled).toBe(true);

    await act(() => waitForActor(app.actor, (s) => s.matches({ features: { ready: { laterFeatures: 'started' } } })));
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Price alerts' }).disabled).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Price alerts' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});
