/**
 * Focus return for Radix dialogs opened without a Radix <Trigger>: Radix only refocuses its
 * own trigger, so a modal opened by a machine event or a menu item would drop focus on the
 * body. We remember what had focus when the dialog opened and give it back on close.
 */
import { useRef, type RefObject } from 'react';

export function useDialogFocus(options: {
  initialFocus?: RefObject<HTMLElement | null>;
  returnFocus?: RefObject<HTMLElement | null>;
}) {
  const previous = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      // Runs before Radix moves focus into the dialog, so activeElement is still the opener.
      const active = typeof document !== 'undefined' ? document.activeElement : null;
      previous.current = active instanceof HTMLElement && active !== document.body ? active : null;
      const target = options.initialFocus?.current;
      if (target) {
        event.preventDefault();
        target.focus();
      }
    },
    onCloseAutoFocus(event: Event) {
      event.preventDefault();
      const target = options.returnFocus?.current ?? previous.current;
      if (target && target.isConnected) target.focus();
      previous.current = null;
    },
  };
}

/**
 * True for an interaction on a toast. Toasts float above dialogs; tapping one to dismiss it
 * must not count as a click outside the dialog (which would close it).
 */
export function isToastInteraction(event: Event): boolean {
  const original = (event as CustomEvent<{ originalEvent?: Event }>).detail?.originalEvent ?? event;
  // Radix reports an outside press at the click that ends it, when the tapped toast has already
  // been dismissed and taken off the page: its own subtree still says it was a toast.
  const target = original.target;
  return target instanceof Element && target.closest('.toast-viewport, .toast') !== null;
}
