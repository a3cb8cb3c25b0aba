/**
 * Pagination: nothing for a single page; first, last and the current page's neighbours with
 * ellipses otherwise; prev/next disabled at the ends; buttons named from the locale files.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Pagination, paginationItems } from '../../src/components/Pagination';
import { I18nProvider } from '../../src/i18n';

/** The page list as drawn: numbers and "…" (ellipses are aria-hidden, so include hidden items). */
function visiblePages(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Pagination' });
  return within(nav)
    .getAllByRole('listitem', { hidden: true })
    .map((li) => li.textContent!.trim());
}

describe('paginationItems', () => {
  it('is empty for zero or one page', () => {
    expect(paginationItems(1, 1)).toEqual([]);
    expect(paginationItems(1, 0)).toEqual([]);
  });
  it('shows every page when there are few', () => {
    expect(paginationItems(2, 4)).toEqual([1, 2, 3, 4]);
  });
  it('fills a one-page gap instead of an ellipsis', () => {
    expect(paginationItems(3, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
  });
});

describe('Pagination', () => {
  it('renders nothing for one page', () => {
    const { container } = render(<Pagination page={1} totalPages={1} onChange={() => undefined} />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('10 pages, current 1: 1 2 … 10, previous disabled', () => {
    render(<Pagination page={1} totalPages={10} onChange={() => undefined} />);
    expect(visiblePages()).toEqual(['1', '2', '…', '10']);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
  });

  it('10 pages, current 5: 1 … 4 5 6 … 10', () => {
    render(<Pagination page={5} totalPages={10} onChange={() => undefined} />);
    expect(visiblePages()).toEqual(['1', '…', '4', '5', '6', '…', '10']);
    expect(screen.getByRole('button', { name: 'Page 5' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Page 4' }).getAttribute('aria-current')).toBeNull();
  });

  it('10 pages, current 10: 1 … 9 10, next disabled', () => {
    render(<Pagination page={10} totalPages={10} onChange={() => undefined} />);
    expect(visiblePages()).toEqual(['1', '…', '9', '10']);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('calls onChange with the chosen, previous and next page', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Pagination page={5} totalPages={10} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Page 10' }));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(onChange.mock.calls.map((c) => c[0])).toEqual([10, 4, 6]);
  });

  it('names its controls in the current language', () => {
    render(
      <I18nProvider language="es">
        <Pagination page={2} totalPages={3} onChange={() => undefined} />
      </I18nProvider>,
    );
    expect(screen.getByRole('navigation', { name: 'Paginación' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Página siguiente' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Página 3' })).toBeTruthy();
  });
});
