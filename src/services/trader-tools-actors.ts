/**
 * The real implementations of what the trader-tools machines name (issue 16): the price alerts'
 * and the journal's REST calls (contract/alerts.ts, contract/statistics.ts; every answer checked
 * with its schema, through the shared api-client) and the trade sound player (sounds.ts). A
 * failure carries the server's text, or the machine's locale key when the server gave none.
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { AlertListSchema, AlertSchema, type PriceAlert } from '../../contract/alerts';
import { JournalSchema, type Journal, type JournalPeriod } from '../../contract/statistics';
import { priceAlertsMachine, type AlertList, type CreateAlertRequest } from '../../machines/price-alerts/price-alerts.machine';
import { traderPrefsMachine, type TradeSound } from '../../machines/trader-prefs/trader-prefs.machine';
import { journalMachine } from '../../machines/journal/journal.machine';
import type { HttpClient } from './http';
import { apiClient } from './api-client';
import { createSoundPlayer, type SoundPlayer } from './sounds';

/**
 * What a failure without server text says: the machines' own locale keys (t() translates a key
 * as well as a known server text), so nothing English reaches a Russian or Spanish reader.
 */
export const TRADER_TOOLS_FALLBACK = {
  loadAlerts: 'alerts.load_failed',
  createAlert: 'alerts.create_failed',
  deleteAlert: 'alerts.delete_failed',
  journal: 'journal.load_failed',
} as const;

export function createTraderToolsApi(http: HttpClient) {
  const { parsed } = apiClient(http);
  return {
    listAlerts: (): Promise<AlertList> => parsed(AlertListSchema, TRADER_TOOLS_FALLBACK.loadAlerts, '/api/v2/alerts', { method: 'GET' }),
    async createAlert(request: CreateAlertRequest): Promise<PriceAlert> {
      const { alert } = await parsed(v.object({ alert: AlertSchema }), TRADER_TOOLS_FALLBACK.createAlert, '/api/v2/alerts', {
        method: 'POST',
        body: { pair_code: request.pairCode, direction: request.direction, price: request.price },
      });
      return alert;
    },
    async deleteAlert(alertId: number): Promise<number> {
      await parsed(v.object({ deleted: v.literal(true) }), TRADER_TOOLS_FALLBACK.deleteAlert, `/api/v2/alerts/${encodeURIComponent(String(alertId))}`, { method: 'DELETE' });
      return alertId;
    },
    journal: (period: JournalPeriod): Promise<Journal> =>
      // The device's zone: the journal's days and hours follow it when the profile names no zone.
      parsed(JournalSchema, TRADER_TOOLS_FALLBACK.journal, '/api/v2/statistics/me', { method: 'GET', query: { period, ...deviceZone() } }),
  };
}

/** `{tz}` with the device's IANA zone, or nothing when the browser does not say. */
function deviceZone(): { tz?: string } {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? { tz: zone } : {};
}

export type TraderToolsApi = ReturnType<typeof createTraderToolsApi>;

/** `{ traderPrefs, priceAlerts }` for createImplementations(). */
export function traderToolsImplementations(deps: { http: HttpClient; window: Window | null; sounds?: SoundPlayer }) {
  const api = createTraderToolsApi(deps.http);
  const player = deps.sounds ?? createSoundPlayer(deps.window);
  return {
    traderPrefs: traderPrefsMachine.provide({
      actions: {
        playSound: (_, params: { sound: TradeSound }) => player.play(params.sound),
      },
    }),
    priceAlerts: priceAlertsMachine.provide({
      actors: {
        loadAlerts: fromPromise<AlertList, void>(() => api.listAlerts()),
        createAlert: fromPromise<PriceAlert, CreateAlertRequest>(({ input }) => api.createAlert(input)),
        deleteAlert: fromPromise<number, { alertId: number }>(({ input }) => api.deleteAlert(input.alertId)),
      },
    }),
  };
}

/** The journal section's machine with its REST call (the profile flow spawns it). */
export function journalImplementation(http: HttpClient) {
  const api = createTraderToolsApi(http);
  return journalMachine.provide({
    actors: {
      loadJournal: fromPromise<Journal, { period: JournalPeriod }>(({ input }) => api.journal(input.period)),
    },
  });
}
