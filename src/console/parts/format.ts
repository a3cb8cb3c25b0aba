/** Small formatting helpers of the console's screens: money in minor units, action keys. */
import { fromMinor } from '../../../contract/money';
import { findCurrency } from '../../../contract/currencies';

/** An amount in the currency's minor units as a number of the currency (USD cents -> dollars). */
export function majorOf(minor: number, currency: string): number {
  return fromMinor(minor, findCurrency(currency)?.decimals ?? 2);
}

/** The locale key part of an action id ('user.openAs' -> 'user_open_as'). */
export function actionKey(action: string): string {
  return action.replace(/\./g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Actions that may need a second operator (shown in the confirmation: who approves). */
export const FOUR_EYES_ACTIONS: ReadonlySet<string> = new Set(['payment.approve', 'user.adjust', 'risk.set', 'pair.enable']);
