import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The row's title: on phones it heads the row's card without a label. */
  title?: boolean;
  /** The header is for screen readers only (a column of buttons). */
  hideHeader?: boolean;
  className?: string;
}

/**
 * A list as a table that turns into one card per row on phones (`table.stack`, console.css): each
 * cell carries its column's header as `data-label`. `empty` is shown instead of an empty table.
 */
export function DataTable<T>({
  caption,
  rows,
  columns,
  rowKey,
  empty,
  className,
}: {
  caption: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: ReactNode;
  className?: string;
}) {
  if (rows.length === 0) return <>{empty}</>;
  return (
    <div className="table-wrap">
      <table className={className ? `stack ${className}` : 'stack'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-row-id={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} data-label={c.title ? undefined : c.header} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "Newer / older" links of a paged list; `href(offset)` builds the page's address. `capped`: the
 * list counted only up to one past this page, so `total` is a lower bound.
 */
export function Pager({
  offset,
  limit,
  total,
  capped = false,
  href,
}: {
  offset: number;
  limit: number;
  total: number;
  capped?: boolean;
  href: (offset: number) => string;
}) {
  if (total <= limit) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {offset > 0 ? <a href={href(Math.max(0, offset - limit))}>← Newer</a> : <span />}
      <span className="empty">
        {offset + 1}–{Math.min(offset + limit, total)} of {capped ? `more than ${offset + limit}` : total}
      </span>
      {offset + limit < total ? <a href={href(offset + limit)}>Older →</a> : <span />}
    </nav>
  );
}
