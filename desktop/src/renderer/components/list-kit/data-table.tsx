import type { CSSProperties, ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { useResponsiveTable } from '../responsive';

export interface Column<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** A fixed width (px or CSS); columns without one share what is left. */
  width?: number | string;
  /** Hidden in narrow windows (under 600 px), so the main columns keep readable widths. */
  secondary?: boolean;
  /** `data-testid` of this column's cell in a row. */
  cellTestId?: (row: T) => string;
  cellStyle?: CSSProperties;
}

export interface DataTableProps<T> {
  /** The table's accessible name (usually the page title). */
  label: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  rowTestId?: (row: T) => string;
  /** More of a row's attributes: a class (a highlighted row), `data-*` values. */
  rowProps?: (row: T) => { className?: string } & { [data: `data-${string}`]: string | undefined };
  /** The last column's buttons for a row (edit, delete...). */
  actions?: (row: T) => ReactNode;
  actionsHeader?: ReactNode;
  /** Width of the actions column; 88 px fits two icon buttons. */
  actionsWidth?: number;
  /**
   * 'auto' (default): columns as wide as their content asks, widths are hints. 'fixed': the widths given
   * hold and the other columns share the rest (long text then clips, e.g. tag chips with an ellipsis).
   */
  layout?: 'auto' | 'fixed';
}

/** A list page's table: a header row, one row per record, an actions column. */
export function DataTable<T>({
  label,
  rows,
  columns,
  rowKey,
  rowTestId,
  rowProps,
  actions,
  actionsHeader,
  actionsWidth = 88,
  layout = 'auto',
}: DataTableProps<T>) {
  const narrow = useResponsiveTable();
  const width = (column: Column<T>): CSSProperties | undefined => (column.width === undefined ? undefined : { width: column.width });
  return (
    <Table aria-label={label} style={{ tableLayout: layout }}>
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHeaderCell key={column.id} className={column.secondary ? narrow.secondary : undefined} style={width(column)}>
              {column.header}
            </TableHeaderCell>
          ))}
          {actions ? (
            <TableHeaderCell className={narrow.actions} style={{ width: actionsWidth }}>
              {actionsHeader}
            </TableHeaderCell>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)} data-testid={rowTestId?.(row)} {...rowProps?.(row)}>
            {columns.map((column) => (
              <TableCell
                key={column.id}
                className={column.secondary ? narrow.secondary : undefined}
                data-testid={column.cellTestId?.(row)}
                style={column.cellStyle}
              >
                {column.cell(row)}
              </TableCell>
            ))}
            {actions ? <TableCell className={narrow.actions}>{actions(row)}</TableCell> : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
