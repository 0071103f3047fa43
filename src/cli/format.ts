/**
 * Readable output without a dependency: aligned tables and key/value blocks. Numbers are right-aligned,
 * long cells are cut with an ellipsis so a row stays on one terminal line.
 */
export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  header: string;
  value: (row: T) => Cell;
  /** Cut longer cells (in characters). @default 60 */
  max?: number;
}

function cellText(value: Cell, max: number): string {
  const text = value === null || value === undefined ? '-' : String(value).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  if (rows.length === 0) return '(none)\n';
  const cells = rows.map((row) =>
    columns.map((column) => {
      const raw = column.value(row);
      return { text: cellText(raw, column.max ?? 60), numeric: typeof raw === 'number' };
    }),
  );
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((row) => row[index]?.text.length ?? 0)),
  );
  const line = (parts: Array<{ text: string; numeric: boolean }>) =>
    parts
      .map((part, index) => {
        const width = widths[index] ?? 0;
        return part.numeric ? part.text.padStart(width) : part.text.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  // A numeric column's header is right-aligned with its numbers.
  const header = line(
    columns.map((column, index) => ({ text: column.header, numeric: cells.some((row) => row[index]?.numeric) })),
  );
  return `${[header, ...cells.map(line)].join('\n')}\n`;
}

/**
 * A table of records whose fields are not known in advance: one column per field, in order of first
 * appearance; objects and arrays shown as JSON.
 */
export function recordTable(rows: ReadonlyArray<Record<string, unknown>>): string {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return table(
    rows,
    names.map((name) => ({
      header: name.toUpperCase(),
      value: (row: Record<string, unknown>): Cell => {
        const value = row[name];
        return value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)
          ? (value as Cell)
          : JSON.stringify(value);
      },
    })),
  );
}

/** `label: value` lines with the values aligned. */
export function keyValues(pairs: ReadonlyArray<readonly [string, Cell]>): string {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return `${pairs.map(([label, value]) => `${`${label}:`.padEnd(width + 1)}  ${cellText(value, 200)}`).join('\n')}\n`;
}

/** A bulleted list under a title; `(none)` when empty. */
export function list(title: string, items: readonly string[]): string {
  return `${title}:\n${items.length === 0 ? '  (none)\n' : items.map((item) => `  - ${item}\n`).join('')}`;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
