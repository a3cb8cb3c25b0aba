/**
 * Keyboard trading (issue 16 item 4; rules in machines/trader-prefs and docs/trader-tools.md).
 * The trading screen reports key presses to the traderPrefs actor (which knows whether keys
 * trade, whether the trader is typing, and which key is which shortcut) and listens for the
 * `shortcut` it emits; the bet panel and the screen then do exactly what their buttons do.
 * `ShortcutsDialog` lists the shortcuts (opened with `?`) and has the switch that turns them off.
 */
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { SHORTCUTS, shortcutFor, type ShortcutAction } from '../../../machines/trader-prefs/trader-prefs.machine';
import { CheckboxField, Modal } from '../../components';
import { useT } from '../../i18n';
import { useChild } from '../../shared/runtime';

export function useTraderPrefsActor() {
  const ref = useChild('traderPrefs');
  if (!ref) throw new Error('traderPrefs actor missing');
  return ref;
}

/** Typing, or a control that uses arrow keys itself (radio groups, tabs, lists), or a dialog. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  return target.closest('[role="radiogroup"], [role="tablist"], [role="listbox"], [role="slider"], [role="menu"], [role="dialog"], [role="alertdialog"]') !== null;
}

/** Reports every key press on the page to the traderPrefs actor while the trading screen is shown. */
export function useKeyboardTrading(): void {
  const prefs = useTraderPrefsActor();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.repeat && shortcutFor(event.key) !== 'amountUp' && shortcutFor(event.key) !== 'amountDown') return;
      const inField = isTypingTarget(event.target);
      const modified = event.ctrlKey || event.metaKey || event.altKey;
      const action = shortcutFor(event.key);
      // Keys the shortcuts use must not also scroll the page.
      if (action && !inField && !modified && (prefs.getSnapshot().context.shortcuts || action === 'help')) event.preventDefault();
      prefs.send({ type: 'traderPrefs.keyPressed', key: event.key, inField, modified });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [prefs]);
}

/** Calls `handler` with every trading shortcut the keyboard gives (the latest handler each time). */
export function useShortcuts(handler: (action: Exclude<ShortcutAction, 'help'>) => void): void {
  const prefs = useTraderPrefsActor();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const sub = prefs.on('shortcut', (event) => latest.current(event.action));
    return () => sub.unsubscribe();
  }, [prefs]);
}

/** How a key is written in the list. */
function keyLabel(key: string, t: ReturnType<typeof useT>): string {
  const names: Record<string, string> = {
    ArrowUp: t('shortcuts.keys.arrow_up'),
    ArrowDown: t('shortcuts.keys.arrow_down'),
    ArrowLeft: t('shortcuts.keys.arrow_left'),
    ArrowRight: t('shortcuts.keys.arrow_right'),
  };
  return names[key] ?? key.toUpperCase();
}

/** The list of shortcuts (the `?` key) with the switch that turns keyboard trading off. */
export function ShortcutsDialog() {
  const t = useT();
  const prefs = useTraderPrefsActor();
  const open = useSelector(prefs, (s) => s.matches('helpOpen'));
  const enabled = useSelector(prefs, (s) => s.context.shortcuts);
  return (
    <Modal
      open={open}
      onOpenChange={(next) => prefs.send({ type: next ? 'traderPrefs.helpOpened' : 'traderPrefs.helpClosed' })}
      title={t('shortcuts.title')}
      description={enabled ? t('shortcuts.hint') : t('shortcuts.off_hint')}
      size="sm"
      className="shortcuts-dialog"
    >
      <table className="shortcuts-table">
        <caption className="visually-hidden">{t('shortcuts.title')}</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">{t('shortcuts.action')}</th>
            <th scope="col">{t('shortcuts.keys_column')}</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => {
            // Letters appear once (lower and upper case are the same key to a reader).
            const keys = s.keys.filter((k, i) => s.keys.findIndex((o) => o.toLowerCase() === k.toLowerCase()) === i);
            return (
              <tr key={s.action}>
                <th scope="row">{t(`shortcuts.actions.${s.action}`)}</th>
                <td>
                  {keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? <span className="shortcuts-or">{t('shortcuts.or')}</span> : null}
                      <kbd>{keyLabel(k, t)}</kbd>
                    </span>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <CheckboxField
        className="shortcuts-switch"
        label={t('shortcuts.enable')}
        hint={t('shortcuts.typing_note')}
        checked={enabled}
        onChange={(e) => prefs.send({ type: 'traderPrefs.shortcutsSwitched', enabled: e.currentTarget.checked })}
      />
    </Modal>
  );
}
