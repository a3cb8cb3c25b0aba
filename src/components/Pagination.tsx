/**
 * Pagination: previous/next plus page buttons showing the first page, the last page and the
 * neighbours of the current one, with ellipses for the gaps. Renders nothing for one page.
 * Every button is named from the locale files; the current page carries aria-current.
 */
import { useT } from '../i18n';
import { Icon } from './Icon';
import { cx } from './cx';
import './Pagination.css';

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * The visible items for `page` of `totalPages` (1-based). A gap of exactly one page shows that
 * page instead of an ellipsis, since an ellipsis would hide nothing.
 */
export function paginationItems(page: number, totalPages: number, neighbours = 1): PageItem[] {
  if (totalPages <= 1) return [];
  const current = Math.min(Math.max(1, page), totalPages);
  const shown = new Set<number>([1, totalPages]);
  for (let p = current - neighbours; p <= current + neighbours; p++) if (p >= 1 && p <= totalPages) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: PageItem[] = [];
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined) {
      if (p - prev === 2) out.push(prev + 1);
      else if (p - prev > 2) out.push(p === totalPages ? 'ellipsis-end' : 'ellipsis-start');
    }
    out.push(p);
  });
  return out;
}

export type PaginationProps = {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  disabled?: boolean;
  className?: string;
};

export function Pagination({ page, totalPages, onChange, disabled = false, className }: PaginationProps) {
  const t = useT();
  if (totalPages <= 1) return null;
  const items = paginationItems(page, totalPages);
  const go = (target: number) => {
    if (!disabled && target >= 1 && target <= totalPages && target !== page) onChange(target);
  };
  return (
    <nav className={cx('pagination', className)} aria-label={t('components.pagination.label')}>
      <button
        type="button"
        className="pagination-step"
        onClick={() => go(page - 1)}
        disabled={disabled || page <= 1}
        aria-label={t('components.pagination.previous')}
      >
        <Icon name="chevron" direction="left" size={18} />
      </button>
      <ul className="pagination-pages">
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item} data-neighbour={item !== 1 && item !== totalPages && item !== page ? '' : undefined}>
              <button
                type="button"
                className="pagination-page tabular"
                onClick={() => go(item)}
                disabled={disabled}
                aria-current={item === page ? 'page' : undefined}
                aria-label={t('components.pagination.page', { page: item })}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className="pagination-ellipsis" aria-hidden="true">
              …
            </li>
          ),
        )}
      </ul>
      <span className="pagination-status visually-hidden">
        {t('components.pagination.page_of', { page, total: totalPages })}
      </span>
      <button
        type="button"
        className="pagination-step"
        onClick={() => go(page + 1)}
        disabled={disabled || page >= totalPages}
        aria-label={t('components.pagination.next')}
      >
        <Icon name="chevron" direction="right" size={18} />
      </button>
    </nav>
  );
}
