// An aligned text table: text columns to the left, figures to the right, a rule under the header.

export interface TextTable {
  readonly columns: readonly string[];
  /** Columns whose cells are figures, aligned to the right. */
  readonly numeric: ReadonlySet<number>;
  readonly rows: readonly (readonly string[])[];
}

export function formatTable(table: TextTable, header: (text: string) => string = (text) => text): string {
  const widths = table.columns.map((column, index) => Math.max(column.length, ...table.rows.map((row) => (row[index] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (table.numeric.has(index) ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!)))
      .join("  ")
      .trimEnd();
  return [header(line(table.columns)), widths.map((width) => "-".repeat(width)).join("  "), ...table.rows.map(line)].join("\n");
}
