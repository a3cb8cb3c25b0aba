/**
 * Small hooks shared by the components: a media query, the user's reduced-motion preference,
 * scroll hints for horizontal strips and an "outside click / Escape" listener for popovers.
 */
import { useCallback, useEffect, useSyncExternalStore, type RefObject } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** The phone layout (spec: mobile <= 768 px): modals as bottom sheets, no sidebar. */
export const PHONE_QUERY = '(max-width: 768px)';

const mediaList = (media: string): MediaQueryList | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(media) : null;

/** Whether a media query matches now; follows its changes. False where matchMedia is missing. */
export function useMediaQuery(media: string): boolean {
  const subscribe = useCallback(
    (notify: () => void) => {
      const list = mediaList(media);
      list?.addEventListener?.('change', notify);
      return () => list?.removeEventListener?.('change', notify);
    },
    [media],
  );
  return useSyncExternalStore(subscribe, () => mediaList(media)?.matches ?? false, () => false);
}

export function useReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION);
}

/**
 * Marks a horizontally scrolling strip with `data-more-start` / `data-more-end` while part of
 * it is hidden on that side, so CSS can fade the edge and show an arrow (a visible hint that
 * the strip scrolls). Also keeps the item marked current (aria-current / aria-selected) in view.
 */
export function useScrollHints<T extends HTMLElement>(ref: RefObject<T | null>, current?: unknown) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const max = el.scrollWidth - el.clientWidth;
      el.toggleAttribute('data-more-start', max > 1 && el.scrollLeft > 1);
      el.toggleAttribute('data-more-end', max > 1 && el.scrollLeft < max - 1);
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [ref]);
  useEffect(() => {
    const el = ref.current;
    if (!el || el.scrollWidth <= el.clientWidth) return;
    const active = el.querySelector<HTMLElement>('[aria-current]:not([aria-current="false"]), [aria-selected="true"]');
    if (!active) return;
    const box = el.getBoundingClientRect();
    const item = active.getBoundingClientRect();
    if ((item.left < box.left || item.right > box.right) && typeof el.scrollBy === 'function') {
      el.scrollBy({ left: item.left - box.left - (box.width - item.width) / 2 });
    }
  }, [ref, current]);
}

/** Calls onDismiss on a pointer press outside every given element, or on Escape. */
export function useDismiss(active: boolean, refs: Array<RefObject<HTMLElement | null>>, onDismiss: (reason: 'outside' | 'escape') => void) {
  useEffect(() => {
    if (!active) return;
    const onPointer = (event: PointerEvent | MouseEvent) => {
      const target = event.target as Node | null;
      if (target && refs.some((r) => r.current?.contains(target))) return;
      onDismiss('outside');
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onDismiss('escape');
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refs are stable RefObjects; onDismiss may change every render and is read fresh below.
  }, [active, onDismiss]);
}
