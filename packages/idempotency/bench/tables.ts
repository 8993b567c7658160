// Plain-text and Markdown tables with aligned columns, and number formats.

export function formatRate(perSecond: number | undefined): string {
  return perSecond === undefined ? 'n/a' : Math.round(perSecond).toLocaleString('en-US');
}

export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

export function formatMicros(micros: number | undefined): string {
  return micros === undefined ? 'n/a' : `${micros.toFixed(0)} µs`;
}

export function verdict(met: boolean): string {
  return met ? 'PASS' : 'MISS';
}

function widths(headers: readonly string[], rows: readonly (readonly string[])[]): number[] {
  return headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
}

/** First column left-aligned; the others right-aligned when they hold numbers. */
function align(
  cells: readonly string[],
  columnWidths: readonly number[],
  numbers = true,
): string[] {
  return columnWidths.map((width, column) => {
    const cell = cells[column] ?? '';
    return column === 0 || !numbers ? cell.padEnd(width) : cell.padStart(width);
  });
}

export function textTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const columnWidths = widths(headers, rows);
  const lines = [headers, ...rows].map((row) => align(row, columnWidths).join(' | '));
  const rule = columnWidths.map((width) => '-'.repeat(width)).join('-+-');
  return [lines[0], rule, ...lines.slice(1)].join('\n');
}

export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: { numbers?: boolean } = {},
): string {
  const numbers = options.numbers ?? true;
  const columnWidths = widths(headers, rows);
  const line = (cells: readonly string[]): string =>
    `| ${align(cells, columnWidths, numbers).join(' | ')} |`;
  const rule = columnWidths.map((width, column) =>
    column === 0 || !numbers ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`,
  );
  return [line(headers), `| ${rule.join(' | ')} |`, ...rows.map(line)].join('\n');
}
