/**
 * The pair selector (spec section 2): a search box (case-insensitive substring of
 * pair_human_code or pair_code), category tabs All (first, default), Forex, Crypto, Stocks,
 * Commodities, and the active pairs with logo, live price and payout. Arrow keys move between
 * the search box and the pairs; Enter or a click chooses (saved to the front settings by the
 * pairs actor) and closes. Nothing matches: "No pairs found" with a hint. With a mouse and a
 * keyboard the search box has focus at once; on a touch screen focus goes to the current pair
 * instead, so the on-screen keyboard does not cover the list until the trader taps the search.
 */
import { useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useSelector } from '@xstate/react';
import { PAIR_CATEGORIES, type Pair, type PairCategory } from '../../../contract/market';
import { EmptyState, Icon, Modal, PriceText, Skeleton, Tabs, TextField, useMediaQuery } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useConnectionState } from '../../shared/hooks';
import type { ModalComponentProps } from '../../shared/modals';
import { usePairsActor } from './hooks';
import { logoSrc } from './pair-logo';
import './trading.css';
import './market-facts.css';

export type CategoryTab = 'all' | PairCategory;
/** A touch screen without a fine pointer: focusing a text box there opens the on-screen keyboard. */
const TOUCH_QUERY = '(pointer: coarse) and (hover: none)';
const TABS: CategoryTab[] = ['all', ...PAIR_CATEGORIES];

/** The pairs a search and a category leave (spec: case-insensitive substring of either code). */
export function filterPairs(pairs: readonly Pair[], query: string, category: CategoryTab): Pair[] {
  const needle = query.trim().toLowerCase();
  return pairs.filter(
    (p) =>
      (category === 'all' || p.category === category) &&
      (needle === '' || p.pair_human_code.toLowerCase().includes(needle) || p.pair_code.toLowerCase().includes(needle)),
  );
}

export function PairSelectorModal({ onClose }: ModalComponentProps) {
  const t = useT();
  const format = useFormat();
  const pairsActor = usePairsActor();
  const pairs = useSelector(pairsActor, (s) => s.context.pairs);
  const rates = useSelector(pairsActor, (s) => s.context.rates);
  const current = useSelector(pairsActor, (s) => s.context.currentPair);
  const stale = useConnectionState() !== 'live';
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<CategoryTab>('all');
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listBox = useRef<HTMLDivElement>(null);
  const currentOption = useRef<HTMLButtonElement>(null);
  const touch = useMediaQuery(TOUCH_QUERY);
  // Touch: the current pair (or the list) rather than the search box, which would open the keyboard.
  const touchFocus = useMemo<RefObject<HTMLElement | null>>(() => ({ get current() { return currentOption.current ?? listBox.current; } }), []);
  const initialFocus = touch ? touchFocus : search;

  const shown = useMemo(() => filterPairs(pairs, query, category), [pairs, query, category]);

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
      <EmptyState icon="search" title={t('trading.pair_selector.no_pairs_found')} hint={t('trading.pair_selector.try_different')} compact />
    ) : (
      <ul className="pair-list" ref={list} aria-label={t('trading.pair_selector.list')} onKeyDown={moveFocus}>
        {shown.map((pair) => {
          const price = rates[pair.pair_code];
          const isCurrent = pair.pair_code === current;
          return (
            <li key={pair.pair_code}>
              <button
                type="button"
                className="pair-option"
                aria-current={isCurrent || undefined}
                ref={isCurrent ? currentOption : undefined}
                onClick={() => choose(pair.pair_code)}
                aria-label={t(pair.simulated ? 'trading.pair_selector.option_simulated' : 'trading.pair_selector.option', {
                  pair: pair.pair_human_code,
                  category: t(`trading.categories.${pair.category}`),
                  payout: format.percent(pair.payout_rate),
                })}
              >
                <img className="pair-logo" src={logoSrc(pair)} alt="" width={28} height={28} loading="lazy" />
                <span className="pair-option-names">
                  <span className="pair-option-name">{pair.pair_human_code}</span>
                  <span className="pair-option-category">
                    {t(`trading.categories.${pair.category}`)}
                    {pair.simulated ? <span className="simulated-chip" title={t('trading.simulated_title')}>{t('trading.simulated')}</span> : null}
                  </span>
                </span>
                <span className="pair-option-price">{price !== undefined ? <PriceText value={price} precision={pair.precision} stale={stale} /> : '—'}</span>
                <span className="pair-option-payout tabular">{format.percent(pair.payout_rate)}</span>
                {isCurrent ? <Icon name="check" size={16} className="pair-option-check" /> : <span className="pair-option-check" />}
              </button>
            </li>
          );
        })}
      </ul>
    );

  return (
    <Modal open onOpenChange={(open) => (open ? undefined : onClose())} title={t('trading.pair_selector.title')} size="md" initialFocus={initialFocus} className="pair-selector">
      <div className="stack stack-sm">
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
        <Tabs
          label={t('trading.pair_selector.categories')}
          variant="pill"
          value={category}
          onValueChange={(value) => setCategory(value as CategoryTab)}
          items={TABS.map((tab) => ({ value: tab, label: t(`trading.categories.${tab}`) }))}
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
