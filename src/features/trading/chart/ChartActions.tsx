/**
 * The chart actions slot: the end of the chart toolbar (ChartTools.tsx), after the drawing
 * tools, for actions on the pair on screen that are not part of the chart setup.
 *
 * Here: the price alert bell (PriceAlerts.tsx, issue 16 item 7) and, with a keyboard (not on
 * phones), the button that lists the keyboard shortcuts (keyboard.tsx, item 4). Both use the
 * toolbar's button look and sit inside its role="toolbar".
 */
import { IconButton, PHONE_QUERY, useMediaQuery } from '../../../components';
import { useT } from '../../../i18n';
import { PriceAlertButton } from '../PriceAlerts';
import { useTraderPrefsActor } from '../keyboard';

export function ChartActions({ pairCode }: { pairCode: string | null }) {
  const t = useT();
  const prefs = useTraderPrefsActor();
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <>
      <PriceAlertButton pairCode={pairCode} />
      {/* Keyboard trading is for keyboards: no shortcuts button on phones. */}
      {phone ? null : (
        <IconButton className="chart-tool chart-tool-icon" size="sm" icon="keyboard" label={t('shortcuts.open')} onClick={() => prefs.send({ type: 'traderPrefs.helpOpened' })} />
      )}
    </>
  );
}
