/**
 * The pair selector (spec section 2; issue 26 item 4, a market overview): a search box
 * (case-insensitive substring of the pair's name, code or translated name), a sort (the server's
 * order, name, 24-hour change or payout; the pairs actor keeps it), category tabs All (first,
 * default), Favourites, Forex, Crypto, Stocks, Commodities, and the active pairs grouped by
 * category, each with logo, live price, 24-hour change and payout, and a star that adds or removes
 * it from the favourites (saved in the front settings by the traderPrefs actor). A group whose
 * prices are all simulated says "Simulated" once, in its header; in a mixed group the simulated
 * rows say it. Arrow keys move between the search box and the pairs; Enter or a click chooses
 * (saved to the front settings by the pairs actor) and closes. Nothing matches: "No pairs found"
 * with a hint. With a mouse and a keyboard the search box has focus at once; on a touch screen
 * focus goes to the current pair instead, so the on-screen keyboard does not cover the list
 * until the trader taps the search.
 */
import { useId, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useSelector } from '@xstate/react';
import { PAIR_CATEGORIES, type Pair, type PairCategory } from '../../../contract/market';
import { dayChangeOf, sortPairs, type DayBase, type PairSort } from '../../../machines/pairs/pairs.machine';
import { EmptyState, Icon, Modal, PriceText, SelectField, Skeleton, Tabs, TextField, useMediaQuery } from '../../components';
import { useFormat, useT, type TFunction } from '../../i18n';
import { useConnectionState } from '../../shared/hooks';
import type { ModalComponentProps } from '../../shared/modals';
import { changeTrend } from './ChartPanel';
import { usePairsActor } from './hooks';
import { useTraderPrefsActor } from './keyboard';
import { logoSrc } from './pair-logo';
import { pairDisplayName } from '../../i18n/pair-name';
import './trading.css';
import './market-facts.css';

export type CategoryTab = 'all' | 'favourites' | PairCategory;
/** A touch screen without a fine pointer: focusing a text box there opens the on-screen keyboard. */
const TOUCH_QUERY = '(pointer: coarse) and (hover: none)';
const TABS: CategoryTab[] = ['all', 'favourites', ...PAIR_CATEGORIES];

/** The sort menu's choices, each a key and a direction of the pairs actor's PairSort. */
const SORTS: Record<string, PairSort> = {
  default: { key: 'default', descending: false },
  name_asc: { key: 'name', descending: false },
  name_desc: { key: 'name', descending: true },
  change_desc: { key: 'change', descending: true },
  change_asc: { key: 'change', descending: false },
  payout_desc: { key: 'payout', descending: true },
};
const sortId = (sort: PairSort) => Object.keys(SORTS).find((id) => SORTS[id].key === sort.key && SORTS[id].descending === sort.descending) ?? 'default';

/**
 * The pairs a search and a tab leave (spec: case-insensitive substring of either code; also of
 * the name shown, `names`, when it is translated).
 */
export function filterPairs(
  pairs: readonly Pair[],
  query: string,
  category: CategoryTab,
  favourites: readonly string[] = [],
  names: (pair: Pair) => string = (p) => p.pair_human_code,
): Pair[] {
  const needle = query.trim().toLowerCase();
  return pairs.filter(
    (p) =>
      (category === 'all' || (category === 'favourites' ? favourites.includes(p.pair_code) : p.category === category)) &&
      (needle === '' || p.pair_human_code.toLowerCase().includes(needle) || p.pair_code.toLowerCase().includes(needle) || names(p).toLowerCase().includes(needle)),
  );
}

export interface PairGroup {
  category: PairCategory;
  pairs: Pair[];
  /** Every pair of the group is simulated: the header says so once, the rows do not. */
  simulated: boolean;
}

/** The pairs by category, in the catalogue's category order, keeping their order within each. */
export function groupPairs(pairs: readonly Pair[]): PairGroup[] {
  const groups: PairGroup[] = [];
  for (const category of PAIR_CATEGORIES) {
    const inGroup = pairs.filter((p) => p.category === category);
    if (inGroup.length) groups.push({ category, pairs: inGroup, simulated: inGroup.every((p) => p.simulated === true) });
  }
  return groups;
}

/** "+1.23 %" with the sign always shown (a change that rounds to zero shows none). */
function signedPercent(ratio: number, percent: (fraction: number, decimals?: number) => string): string {
  const trend = changeTrend(ratio);
  const text = percent(trend === 'flat' ? 0 : Math.abs(ratio), 2);
  return trend === 'up' ? `+${text}` : trend === 'down' ? `−${text}` : text;
}

function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M12 3.2l2.7 5.6 6.1.8-4.5 4.2 1.1 6-5.4-2.9-5.4 2.9 1.1-6-4.5-4.2 6.1-.8z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function changeLabel(t: TFunction, base: DayBase | undefined, sinceText: (ms: number) => string): string {
  return base?.since !== undefined ? t('trading.change_since', { time: sinceText(base.since) }) : t('trading.change_24h');
}

export function PairSelectorModal({ onClose }: ModalComponentProps) {
  const t = useT();
  const format = useFormat();
  const pairsActor = usePairsActor();
  const prefs = useTraderPrefsActor();
  const pairs = useSelector(pairsActor, (s) => s.context.pairs);
  const rates = useSelector(pairsActor, (s) => s.context.rates);
  const dayBases = useSelector(pairsActor, (s) => s.context.dayBases);
  const sort = useSelector(pairsActor, (s) => s.context.sort);
  const current = useSelector(pairsActor, (s) => s.context.currentPair);
  const favourites = useSelector(prefs, (s) => s.context.favourites);
  const groupId = useId();
  const stale = useConnectionState() !== 'live';
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<CategoryTab>('all');
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const listBox = useRef<HTMLDivElement>(null);
  const currentOption = useRef<HTMLButtonElement>(null);
  const touch = useMediaQuery(TOUCH_QUERY);
  // Touch: the current pair (or the list) rather than the search box, which would open the keyboard.
  const touchFocus = useMemo<RefObject<HTMLElement | null>>(() => ({ get current() { return currentOption.current ?? listBox.current; } }), []);
  const initialFocus = touch ? touchFocus : search;

  const names = useMemo(() => (pair: Pair) => pairDisplayName(t, pair), [t]);
  const filtered = useMemo(() => filterPairs(pairs, query, category, favourites, names), [pairs, query, category, favourites, names]);
  // Sorted by change, the order is taken again when the list, the sort, a tab or the 24-hour bases
  // change (about once a minute), not on every rate: rows do not jump under the pointer.
  const sortedCodes = useMemo(
    () => sortPairs(filtered, sort, { rates: pairsActor.getSnapshot().context.rates, dayBases }).map((p) => p.pair_code),
    [filtered, sort, dayBases, pairsActor],
  );
  const shown = useMemo(() => {
    const byCode = new Map(filtered.map((p) => [p.pair_code, p]));
    return sortedCodes.map((code) => byCode.get(code)).filter((p): p is Pair => p !== undefined);
  }, [filtered, sortedCodes]);
  const groups = useMemo(() => groupPairs(shown), [shown]);
  const sinceText = (ms: number) => format.dateTime(ms, { format: 'DD.MM HH:mm' });

  const choose = (pairCode: string) => {
    pairsActor.send({ type: 'pairs.pairSelected', pairCode });
    onClose();
  };

  const buttons = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>('button.pair-option') ?? []);
  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    const all = buttons();
    if (!all.length) return;
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = index < 0 ? 0 : Math.min(all.length - 1, index + 1);
    else if (event.key === 'ArrowUp') next = index <= 0 ? -1 : index - 1;
    else if (event.key === 'Home' && index >= 0) next = 0;
    else if (event.key === 'End' && index >= 0) next = all.length - 1;
    if (next === null) return;
    event.preventDefault();
    if (next < 0) search.current?.focus();
    else all[next]?.focus();
  };

  const listContent =
    pairs.length === 0 ? (
      <div className="pair-list-loading" aria-busy="true">
        <span className="visually-hidden">{t('trading.pair_selector.loading')}</span>
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} height={48} />
        ))}
      </div>
    ) : shown.length === 0 ? (
      category === 'favourites' && query.trim() === '' ? (
        <EmptyState icon="tag" title={t('trading.pair_selector.no_favourites')} hint={t('trading.pair_selector.no_favourites_hint')} compact />
      ) : (
        <EmptyState icon="search" title={t('trading.pair_selector.no_pairs_found')} hint={t('trading.pair_selector.try_different')} compact />
      )
    ) : (
      <div className="pair-groups" ref={list} onKeyDown={moveFocus}>
        <div className="pair-list-head" aria-hidden="true">
          <span />
          <span>{t('trading.pair_selector.column_pair')}</span>
          <span className="pair-list-head-num">{t('trading.pair_selector.column_price')}</span>
          <span className="pair-list-head-num">{t('trading.change_24h')}</span>
          <span className="pair-list-head-num">{t('trading.pair_selector.column_payout')}</span>
        </div>
        {groups.map((group) => {
          const headId = `${groupId}-${group.category}`;
          return (
            <section key={group.category} className="pair-group" aria-labelledby={headId}>
              <h3 className="pair-group-head" id={headId}>
                <span>{t(`trading.categories.${group.category}`)}</span>
                {group.simulated ? (
                  <span className="simulated-chip" title={t('trading.simulated_title')}>
                    {t('trading.simulated')}
                  </span>
                ) : null}
              </h3>
              <ul className="pair-list" aria-labelledby={headId}>
                {group.pairs.map((pair) => {
                  const price = rates[pair.pair_code];
                  const isCurrent = pair.pair_code === current;
                  const name = names(pair);
                  const change = dayChangeOf({ rates, dayBases }, pair.pair_code);
                  const trend = change === null ? 'flat' : changeTrend(change);
                  const changeId = `${groupId}-${pair.pair_code}-change`;
                  const favourite = favourites.includes(pair.pair_code);
                  return (
                    <li key={pair.pair_code} className="pair-row">
                      <button
                        type="button"
                        className="pair-option"
                        aria-current={isCurrent || undefined}
                        ref={isCurrent ? currentOption : undefined}
                        onClick={() => choose(pair.pair_code)}
                        aria-label={t(pair.simulated ? 'trading.pair_selector.option_simulated' : 'trading.pair_selector.option', {
                          pair: name,
                          category: t(`trading.categories.${pair.category}`),
                          payout: format.percent(pair.payout_rate),
                        })}
                        aria-describedby={change === null ? undefined : changeId}
                      >
                        <img className="pair-logo" src={logoSrc(pair)} alt="" width={28} height={28} loading="lazy" />
                        <span className="pair-option-names">
                          <span className="pair-option-name">{name}</span>
                          {pair.simulated && !group.simulated ? (
                            <span className="pair-option-category">
                              <span className="simulated-chip" title={t('trading.simulated_title')}>
                                {t('trading.simulated')}
                              </span>
                            </span>
                          ) : null}
                        </span>
                        <span className="pair-option-price">{price !== undefined ? <PriceText value={price} precision={pair.precision} stale={stale} /> : '—'}</span>
                        <span className={`pair-option-change tabular ${trend === 'up' ? 'text-gain' : trend === 'down' ? 'text-loss' : 'text-neutral'}`}>
                          {change === null ? (
                            '—'
                          ) : (
                            <span id={changeId}>
                              <span className="visually-hidden">{changeLabel(t, dayBases[pair.pair_code], sinceText)} </span>
                              {signedPercent(change, format.percent)}
                            </span>
                          )}
                        </span>
                        <span className="pair-option-payout tabular">{format.percent(pair.payout_rate)}</span>
                        {isCurrent ? <Icon name="check" size={16} className="pair-option-check" /> : <span className="pair-option-check" />}
                      </button>
                      <button
                        type="button"
                        className="pair-star"
                        data-on={favourite || undefined}
                        aria-label={t(favourite ? 'trading.pair_selector.favourite_remove' : 'trading.pair_selector.favourite_add', { pair: name })}
                        onClick={() => prefs.send({ type: 'traderPrefs.favouriteToggled', pairCode: pair.pair_code })}
                      >
                        <StarIcon filled={favourite} />
                      </button>
                    </li>
                  );
                })}
              </ul>
            </section>
          );
        })}
      </div>
    );

  return (
    <Modal open onOpenChange={(open) => (open ? undefined : onClose())} title={t('trading.pair_selector.title')} size="md" initialFocus={initialFocus} className="pair-selector">
      <div className="stack stack-sm">
        <div className="pair-selector-bar">
          <TextField
            ref={search}
            type="search"
            label={t('trading.pair_selector.search')}
            hideLabel
            placeholder={t('trading.pair_selector.search_placeholder')}
            value={query}
            maxLength={40}
            autoComplete="off"
            leading={<Icon name="search" size={18} />}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') moveFocus(e);
              if (e.key === 'Enter' && shown.length === 1 && shown[0]) choose(shown[0].pair_code);
            }}
          />
          <SelectField
            className="pair-sort"
            label={t('trading.pair_selector.sort')}
            hideLabel
            value={sortId(sort)}
            options={Object.keys(SORTS).map((id) => ({ value: id, label: t(`trading.pair_selector.sort_${id}`) }))}
            onChange={(e) => pairsActor.send({ type: 'pairs.sortChosen', sort: SORTS[e.currentTarget.value] ?? SORTS.default })}
          />
        </div>
        <Tabs
          label={t('trading.pair_selector.categories')}
          variant="pill"
          value={category}
          onValueChange={(value) => setCategory(value as CategoryTab)}
          items={TABS.map((tab) => ({ value: tab, label: tab === 'favourites' ? t('trading.pair_selector.favourites') : t(`trading.categories.${tab}`) }))}
          className="pair-tabs"
        >
          <div className="pair-list-scroll" ref={listBox} tabIndex={-1}>
            {listContent}
          </div>
        </Tabs>
      </div>
    </Modal>
  );
}
