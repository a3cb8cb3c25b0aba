/**
 * Small selectors over the long-lived actors that many views need: the session's status and
 * user, the current language, the balance shown in the header, the modal stack.
 */
import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { selectBalance, selectCurrencySymbol } from '../../machines/balance/balance.machine';
import { selectModal } from '../../machines/modals/modals.machine';
import { useAppActor, useBalanceActor, useLocaleActor, useModalsActor, useSessionActor, useSocketActor } from './runtime';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

/** loading while the stored session is being checked, then authenticated or anonymous. */
export function useSessionStatus(): SessionStatus {
  const session = useSessionActor();
  return useSelector(session, (s) => {
    if (s.hasTag('authenticated')) return 'authenticated';
    if (s.matches('booting') || s.matches('loadingUser') || s.matches('openingAdminSession')) return 'loading';
    return 'anonymous';
  });
}

/**
 * True once the logged-in features (socket, trading, money, profile) are loaded and spawned:
 * views that use them (the shell, /trading, /profile) wait for it.
 */
export function useFeaturesReady(): boolean {
  const app = useAppActor();
  return useSelector(app, (s) => s.matches({ features: 'ready' }));
}

export function useUser() {
  const session = useSessionActor();
  return useSelector(session, (s) => s.context.user);
}

export function useSessionType() {
  const session = useSessionActor();
  return useSelector(session, (s) => s.context.sessionType);
}

/** The language the locale actor holds (typed: what the I18nProvider is fed, and what a form sends; to render, views use i18n's `useLanguage`). */
export function useLocaleLanguage() {
  const locale = useLocaleActor();
  return useSelector(locale, (s) => s.context.language);
}

export function useBalanceView() {
  const balance = useBalanceActor();
  const amount = useSelector(balance, (s) => selectBalance(s.context));
  const symbol = useSelector(balance, (s) => selectCurrencySymbol(s.context));
  const currency = useSelector(balance, (s) => s.context.selectedCurrency);
  const balanceType = useSelector(balance, (s) => s.context.balanceType);
  const resetting = useSelector(balance, (s) => s.matches('resettingDemo'));
  return { amount, symbol, currency, balanceType, resetting };
}

/** The open modal entry with this id, or null. */
export function useModal(id: string) {
  const modals = useModalsActor();
  return useSelector(modals, (s) => selectModal(s.context, id));
}

/** Open/close helpers for the modal stack. */
export function useModalControls() {
  const modals = useModalsActor();
  return {
    open: (id: string, data?: unknown) => modals.send({ type: 'modal.openRequested', id, data }),
    close: (id: string) => modals.send({ type: 'modal.closeRequested', id }),
  };
}

/** 'live' | 'reconnecting' | 'offline' for the connection indicator. */
export function useConnectionState(): 'live' | 'reconnecting' | 'offline' | 'idle' {
  const socket = useSocketActor();
  return useSelector(socket, (s) => {
    if (s.hasTag('live')) return 'live';
    if (s.hasTag('reconnecting')) return 'reconnecting';
    if (s.matches('failed')) return 'offline';
    if (s.matches('idle')) return 'idle';
    return 'reconnecting';
  });
}

/** Copies a text and says so in a toast ("Copied to clipboard" / "Copy error"). */
export function useCopy() {
  const app = useAppActor();
  return async (text: string) => {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      app.send({ type: 'toast.requested', toast: { type: 'success', messageKey: 'common.copied' } });
    } catch {
      app.send({ type: 'toast.requested', toast: { type: 'error', messageKey: 'common.copy_error' } });
    }
  };
}

/**
 * Milliseconds since the epoch, re-read every `everyMs` (1 s unless given) while `active`
 * (countdowns, expiry clocks); frozen while inactive.
 */
export function useNow({ active = true, everyMs = 1000 }: { active?: boolean; everyMs?: number } = {}): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
