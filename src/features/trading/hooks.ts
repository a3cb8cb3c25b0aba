/**
 * The trading screen's access to its actors (pairs, its chart, orderPlacement, orders, the
 * orderClose flow) and a clock that ticks while something counts down (the media query hook is
 * the kit's: components/hooks.ts).
 */
import { useSelector } from '@xstate/react';
import { useChild } from '../../shared/runtime';

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


