/**
 * The books (every account per currency; each currency sums to zero), the house result per day
 * with its chart (and the same figures as a table), and the open exposure per pair against its
 * limit.
 */
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import type { Books as BooksData, Exposure, Pnl } from '../../../contract/console';
import { Button, InfoChip, SkeletonList } from '../../components';
import { useFormat, useT } from '../../i18n';
import { Amount } from '../parts/Amount';
import { majorOf } from '../parts/format';
import { PnlChart } from '../parts/PnlChart';
import { useRecord } from '../runtime';

function useData<T>(resource: string) {
  const record = useRecord({ resource, params: {} });
  const data = useSelector(record, (s) => s.context.data) as T | null;
  const error = useSelector(record, (s) => s.context.error);
  const failed = useSelector(record, (s) => s.matches('failed'));
  return { record, data, error, failed };
}

function Failure({ error, retry }: { error: string | null; retry: () => void }) {
  const t = useT();
  return (
    <InfoChip kind="error" live action={<Button size="sm" onClick={retry}>{t('console.table.retry')}</Button>}>
      {t(error ?? 'console.record.load_failed')}
    </InfoChip>
  );
}

function PnlSection() {
  const t = useT();
  const format = useFormat();
  const { record, data, error, failed } = useData<Pnl>('pnl');
  const currencies = useMemo(() => [...new Set((data?.series ?? []).map((p) => p.currency))], [data]);
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen && currencies.includes(chosen) ? chosen : (currencies[0] ?? 'USD');
  const points = useMemo(() => (data?.series ?? []).filter((p) => p.currency === currency), [data, currency]);
  const bars = useMemo(() => points.map((p) => ({ day: p.day, value: majorOf(p.house_result_minor, currency) })), [points, currency]);
  const total = data?.totals[currency] ?? 0;
  return (
    <section className="console-card console-section" aria-labelledby="pnl-title">
      <div className="console-area-top">
        <h2 id="pnl-title" className="console-h3">
          {t('console.books.pnl')}
        </h2>
        {currencies.length > 1 ? (
          <label className="console-filter">
            <span>{t('console.books.currency')}</span>
            <select value={currency} onChange={(e) => setChosen(e.currentTarget.value)}>
              {currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        ) : null}
        {data ? <span className="console-muted">{`${data.from} – ${data.to}`}</span> : null}
      </div>
      {failed ? (
        <Failure error={error} retry={() => record.send({ type: 'record.retryRequested' })} />
      ) : !data ? (
        <SkeletonList rows={3} />
      ) : (
        <>
          <PnlChart
            bars={bars}
            label={t('console.books.chart_label', { currency })}
            summary={t('console.books.chart_summary', { days: points.length, total: format.money(majorOf(total, currency), currency, { signed: true }) })}
          />
          <details>
            <summary>{t('console.books.pnl')}</summary>
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{t('console.books.day')}</th>
                  <th scope="col" className="console-num">
                    {t('console.books.orders')}
                  </th>
                  <th scope="col" className="console-num">
                    {t('console.books.stakes')}
                  </th>
                  <th scope="col" className="console-num">
                    {t('console.books.payouts')}
                  </th>
                  <th scope="col" className="console-num">
                    {t('console.books.result')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.day}>
                    <td>{p.day}</td>
                    <td className="console-num">{p.orders}</td>
                    <td className="console-num">
                      <Amount minor={p.stakes_minor} currency={p.currency} />
                    </td>
                    <td className="console-num">
                      <Amount minor={p.payouts_minor} currency={p.currency} />
                    </td>
                    <td className="console-num">
                      <Amount minor={p.house_result_minor} currency={p.currency} signed />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}

export function Books() {
  const t = useT();
  const books = useData<BooksData>('books');
  const exposure = useData<Exposure>('exposure');
  return (
    <section className="console-area" aria-labelledby="books-title">
      <h1 id="books-title">{t('console.books.title')}</h1>
      <PnlSection />
      <div className="console-grid-2">
        <section className="console-card console-section" aria-labelledby="books-accounts">
          <h2 id="books-accounts" className="console-h3">
            {t('console.books.books')}
          </h2>
          {books.failed ? (
            <Failure error={books.error} retry={() => books.record.send({ type: 'record.retryRequested' })} />
          ) : !books.data ? (
            <SkeletonList rows={3} />
          ) : (
            Object.entries(books.data.currencies).map(([currency, book]) => (
              <table className="console-table" key={currency}>
                <caption>{currency}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('console.books.account')}</th>
                    <th scope="col" className="console-num">
                      {t('console.books.balance')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(book.accounts).map(([account, minor]) => (
                    <tr key={account}>
                      <td>{account}</td>
                      <td className="console-num">
                        <Amount minor={minor} currency={currency} />
                      </td>
                    </tr>
                  ))}
                  <tr className="console-total">
                    <th scope="row">{t('console.books.sum')}</th>
                    <td className="console-num">
                      <Amount minor={book.sum} currency={currency} />
                    </td>
                  </tr>
                </tbody>
              </table>
            ))
          )}
        </section>
        <section className="console-card console-section" aria-labelledby="books-exposure">
          <h2 id="books-exposure" className="console-h3">
            {t('console.books.exposure')}
          </h2>
          {exposure.failed ? (
            <Failure error={exposure.error} retry={() => exposure.record.send({ type: 'record.retryRequested' })} />
          ) : !exposure.data ? (
            <SkeletonList rows={3} />
          ) : exposure.data.pairs.length === 0 ? (
            <p className="console-muted">{t('console.books.no_exposure')}</p>
          ) : (
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{t('console.books.pair')}</th>
                  <th scope="col" className="console-num">
                    {t('console.books.worst_case')}
                  </th>
                  <th scope="col" className="console-num">
                    {t('console.books.limit')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {exposure.data.pairs.map((p) => (
                  <tr key={p.pair}>
                    <td>{p.pair}</td>
                    <td className="console-num">
                      <Amount minor={p.worst_case_usd_minor} currency="USD" />
                    </td>
                    <td className="console-num">
                      <Amount minor={p.limit_usd_minor} currency="USD" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </section>
  );
}
