/**
 * The trading screen's access to its actors (pairs, its chart, orderPlacement, orders, the
 * orderClose flow) and two small view hooks: a clock that ticks while something counts down,
 * and a media query.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useSelector } from '@xstate/react';
import { useChild } from '../../app/runtime';

export function usePairsActor() {
  const ref = useChild('pairs');
  if (!ref) throw new Error('pairs actor missing');
  return ref;
}

/** The candles actor the pairs actor owns (it exists as long as pairs does). */
export function useChartActor() {
  const pairs = usePairsActor();
  const ref = useSelector(pairs, (s) => s.children.chart);
  if (!ref) throw new Error('chart actor missing');
  return ref;
}

export function useOrderPlacementActor() {
  const ref = useChild('orderPlacement');
  if (!ref) throw new Error('orderPlacement actor missing');
  return ref;
}

export function useOrdersActor() {
  const ref = useChild('orders');
  if (!ref) throw new Error('orders actor missing');
  return ref;
}

/** The close confirmation flow, while it runs. */
export function useOrderCloseActor() {
  return useChild('orderClose');
}

/** Date.now(), refreshed every `intervalMs` while `active` (countdowns). */
export function useNow(intervalMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

/** Whether a media query matches, kept current. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false),
    () => false,
  );
}

export const MOBILE_QUERY = '(max-width: 768px)';
