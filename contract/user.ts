/**
 * The user as the SPA sees it (spec section 3, User) and the front settings it saves.
 * Amounts on the wire are decimal numbers with the currency's decimals; the ledger behind
 * them counts integer minor units (see money.ts).
 */
import * as v from 'valibot';
import { CurrencyCodeSchema } from './currencies';
import { ChartSetupsSchema, ChartSetupsUpdateSchema } from './chart';

export const BALANCE_TYPES = ['RealBalance', 'DemoBalance'] as const;
export const BalanceTypeSchema = v.picklist(BALANCE_TYPES, 'Balance type must be RealBalance or DemoBalance');
export type BalanceType = v.InferOutput<typeof BalanceTypeSchema>;

export const LANGUAGES = ['en', 'ru', 'es'] as const;
export const LanguageSchema = v.picklist(LANGUAGES, 'Language must be en, ru or es');
export type Language = v.InferOutput<typeof LanguageSchema>;

export const THEMES = ['dark', 'light', 'auto'] as const;
export const ThemeSchema = v.picklist(THEMES, 'Theme must be dark, light or auto');
export type ThemeSetting = v.InferOutput<typeof ThemeSchema>;

export const TIMEFRAMES = ['5s', '15s', '30s', '1m', '5m', '15m', '1h'] as const;
export const TimeframeSchema = v.picklist(TIMEFRAMES, 'Unknown timeframe');
export type Timeframe = v.InferOutput<typeof TimeframeSchema>;
export const TIMEFRAME_SECONDS: Record<Timeframe, number> = {
  '5s': 5,
  '15s': 15,
  '30s': 30,
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
};

export const BalanceEntrySchema = v.object({
  RealBalance: v.number(),
  DemoBalance: v.number(),
});
export type BalanceEntry = v.InferOutput<typeof BalanceEntrySchema>;

/** Map by currency code of {RealBalance, DemoBalance}. */
export const BalancesSchema = v.record(v.string(), BalanceEntrySchema);
export type Balances = v.InferOutput<typeof BalancesSchema>;

/** Favourite pairs one account keeps (front settings). */
export const MAX_FAVOURITE_PAIRS = 100;

export const FrontSettingsSchema = v.object({
  avatar_url: v.nullable(v.string()),
  currentPair: v.nullable(v.string()),
  currentTimeframe: v.nullable(v.string()),
  balance_type: v.nullable(BalanceTypeSchema),
  current_currency: v.nullable(v.string()),
  language: v.nullable(LanguageSchema),
  theme: v.nullable(ThemeSchema),
  /** The chart setup per pair (contract/chart.ts); a broken stored value reads as none. */
  chart_setups: v.optional(v.fallback(ChartSetupsSchema, {})),
  /** Keyboard trading on (absent or null: on). Issue 16, docs/trader-tools.md. */
  keyboard_shortcuts: v.optional(v.fallback(v.nullable(v.boolean()), null)),
  /** Trade sounds on (absent or null: on). */
  sounds: v.optional(v.fallback(v.nullable(v.boolean()), null)),
  /** The pair selector's favourites, pair codes in the order starred (issue 26; absent: none). */
  favourite_pairs: v.optional(v.fallback(v.array(v.string()), [])),
});
export type FrontSettings = v.InferOutput<typeof FrontSettingsSchema>;

export const UserSchema = v.object({
  user_id: v.number(),
  username: v.string(),
  email: v.string(),
  email_verified: v.boolean(),
  two_factor_enabled: v.boolean(),
  balances: BalancesSchema,
  front_settings: FrontSettingsSchema,
  created_at: v.number(),
});
export type User = v.InferOutput<typeof UserSchema>;

/** PATCH (or POST) /api/v2/profile/front-settings: one or more of the keys. */
export const FrontSettingsUpdateSchema = v.pipe(
  v.strictObject(
    {
      currentPair: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(32))),
      currentTimeframe: v.optional(TimeframeSchema),
      balance_type: v.optional(BalanceTypeSchema),
      current_currency: v.optional(CurrencyCodeSchema),
      language: v.optional(LanguageSchema),
      theme: v.optional(ThemeSchema),
      /** Only the pairs whose setup changed (null: back to the defaults). */
      chart_setups: v.optional(ChartSetupsUpdateSchema),
      keyboard_shortcuts: v.optional(v.boolean('Keyboard shortcuts must be true or false')),
      sounds: v.optional(v.boolean('Sounds must be true or false')),
      favourite_pairs: v.optional(
        v.pipe(
          v.array(v.pipe(v.string('A favourite must be a pair code'), v.trim(), v.minLength(1, 'A favourite must be a pair code'), v.maxLength(32, 'A favourite must be a pair code')), 'Favourites must be a list of pair codes'),
          v.maxLength(MAX_FAVOURITE_PAIRS, `At most ${MAX_FAVOURITE_PAIRS} favourites`),
        ),
      ),
    },
    'Unknown setting',
  ),
  v.check((o) => Object.keys(o).length > 0, 'At least one setting is required'),
);
export type FrontSettingsUpdate = v.InferOutput<typeof FrontSettingsUpdateSchema>;
