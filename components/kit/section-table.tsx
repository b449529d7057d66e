import type { ReactNode } from 'react';
import { Card } from './card';
import { type Column, DataTable } from './data-table';
import { EmptyState } from './empty-state';

/** The card that adds one more of what a list shows: its title, its anchor and the form. */
export interface AddCard {
  title: string;
  id: string;
  form: ReactNode;
}

/** How a row is told apart: by its `id` unless the rows have none or another field names them. */
type RowKey<T> = T extends { id: string | number } ? { rowKey?: (row: T) => string } : { rowKey: (row: T) => string };

/**
 * A page's section that lists things: a card with what the list is for (`intro`, a paragraph),
 * the table, then `children` (a pager, a form). `empty` is what shows without rows: a text is the
 * empty state's title. `rowActions` fills a last column with a row's buttons. `add`, given to who
 * may add, follows as a card of its own.
 */
export function SectionTable<T>({
  title,
  id,
  actions,
  intro,
  caption,
  rows,
  rowKey = (row: T) => String((row as { id: string | number }).id),
  empty,
  columns,
  rowActions,
  add,
  children,
}: {
  title: ReactNode;
  id: string;
  actions?: ReactNode;
  intro?: ReactNode;
  caption: string;
  rows: T[];
  rowKey?: (row: T) => string;
  empty: ReactNode;
  columns: Column<T>[];
  rowActions?: (row: T) => ReactNode;
  add?: AddCard | false;
  children?: ReactNode;
} & RowKey<T>) {
  return (
    <>
      <Card title={title} id={id} actions={actions}>
        {intro && <p>{intro}</p>}
        <DataTable
          caption={caption}
          rows={rows}
          rowKey={rowKey}
          empty={typeof empty === 'string' ? <EmptyState title={empty} /> : empty}
          columns={rowActions ? [...columns, actionsColumn(rowActions)] : columns}
        />
        {children}
      </Card>
      {add && (
        <Card title={add.title} id={add.id}>
          {add.form}
        </Card>
      )}
    </>
  );
}

/** The column of a row's buttons; a dash where the row offers this member none. */
function actionsColumn<T>(cell: (row: T) => ReactNode): Column<T> {
  return { header: 'Actions', cell: (row) => cell(row) || <span className="empty">—</span> };
}
