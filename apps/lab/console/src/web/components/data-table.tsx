// A table with a caption (its accessible name) inside a scroll container that
// the keyboard can reach (tabIndex 0) and that carries the same name, so a wide
// table stays readable at 1280x800 without the page scrolling sideways.
import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  readonly header: string;
  readonly cell: (row: Row) => ComponentChildren;
  /** Right-aligned, for numbers. */
  readonly numeric?: boolean;
}

export interface DataTableProps<Row> {
  /** The caption and the scroll container's label: what the browser tests find the table by. */
  readonly name: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string;
  /** Shown in a single row when there are no rows. */
  readonly empty: string;
  readonly rowClass?: (row: Row) => string | undefined;
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { name, columns, rows, rowKey, empty, rowClass } = props;
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={name}>
      <table>
        <caption>{name}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                class={column.numeric === true ? 'numeric' : undefined}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} class={rowClass?.(row)}>
                {columns.map((column) => (
                  <td key={column.header} class={column.numeric === true ? 'numeric' : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
