/**
 * The real implementations of what the trader-tools machines name (issue 16): the price alerts'
 * and the journal's REST calls (contract/alerts.ts, contract/statistics.ts; every answer checked
 * with its schema) and the trade sound player (sounds.ts). Failures reach the machines as an
 * Error whose message is the server's text, or empty when it gave none (the machines then use
 * their own locale key).
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { AlertListSchema, AlertSchema, type PriceAlert } from '../../contract/alerts';
import { JournalSchema, type Journal, type JournalPeriod } from '../../contract/statistics';
import { priceAlertsMachine, type AlertList, type CreateAlertRequest } from '../../machines/price-alerts/price-alerts.machine';
import { traderPrefsMachine, type TradeSound } from '../../machines/trader-prefs/trader-prefs.machine';
import { journalMachine } from '../../machines/journal/journal.machine';
import { ApiError, type HttpClient } from './http';
import { createSoundPlayer, type SoundPlayer } from './sounds';

function data(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, 'data') : undefined;
}

/** The failure as the machines read it: the server's text (status kept), or an empty message. */
function asMachineError(error: unknown): Error {
  if (error instanceof ApiError) return new ApiError(error.status, error.serverMessage ?? '', { serverMessage: error.serverMessage, details: error.details });
  return new Error('');
}

export function createTraderToolsApi(http: HttpClient) {
  async function call<T>(schema: v.GenericSchema<unknown, T>, path: string, options: Parameters<HttpClient['request']>[1]): Promise<T> {
    let body: unknown;
    try {
      body = await http.request<unknown>(path, options);
    } catch (error) {
      throw asMachineError(error);
    }
    const parsed = v.safeParse(schema, data(body));
    if (!parsed.success) throw new Error('');
    return parsed.output;
  }
  return {
    listAlerts: (): Promise<AlertList> => call(AlertListSchema, '/api/v2/alerts', { method: 'GET' }),
    async createAlert(request: CreateAlertRequest): Promise<PriceAlert> {
      const { alert } = await call(v.object({ alert: AlertSchema }), '/api/v2/alerts', {
        method: 'POST',
        body: { pair_code: request.pairCode, direction: request.direction, price: request.price },
      });
      return alert;
    },
    async deleteAlert(alertId: number): Promise<number> {
      await call(v.object({ deleted: v.literal(true) }), `/api/v2/alerts/${encodeURIComponent(String(alertId))}`, { method: 'DELETE' });
      return alertId;
    },
    journal: (period: JournalPeriod): Promise<Journal> => call(JournalSchema, '/api/v2/statistics/me', { method: 'GET', query: { period } }),
  };
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
