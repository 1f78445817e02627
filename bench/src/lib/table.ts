// Renders a benchmark table as aligned terminal text and as markdown.
import type { Cell, Table } from "./benchmark.js";

const isNumeric = (cell: Cell): boolean => typeof cell === "number" || /^[<>≈~]?\s?[\d.,]+\s?(×|%|ms|s|µs|min|h|KB|MB)?\*?$/.test(cell);

/** Empty or a dash: says nothing about how a column should align. */
const isBlank = (cell: Cell): boolean => cell === "" || cell === "—";

function text(cell: Cell): string {
  return typeof cell === "number" ? cell.toLocaleString("en-US") : cell;
}

/** A column of figures aligns right, so their digits line up. */
function alignsRight(table: Table): boolean[] {
  return table.columns.map((_, column) => {
    const cells = table.rows.map((row) => row[column] ?? "");
    return cells.some(isNumeric) && cells.every((cell) => isNumeric(cell) || isBlank(cell));
  });
}

export function formatTable(table: Table): string {
  const right = alignsRight(table);
  const rows = [table.columns.map(String), ...table.rows.map((row) => row.map(text))];
  const widths = table.columns.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (right[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  const [header = [], ...body] = rows;
  const output = [table.title, line(header), widths.map((width) => "─".repeat(width)).join("  "), ...body.map(line)];
  for (const note of table.notes ?? []) output.push(`  ${note}`);
  return output.join("\n");
}

export function formatMarkdownTable(table: Table): string {
  const escapeCell = (cell: string): string => cell.replaceAll("|", "\\|");
  const row = (cells: readonly string[]): string => `| ${cells.map(escapeCell).join(" | ")} |`;
  const alignment = alignsRight(table).map((right) => (right ? "---:" : "---"));
  const output = [`### ${table.title}`, "", row(table.columns.map(String)), row(alignment)];
  for (const cells of table.rows) output.push(row(cells.map(text)));
  if (table.notes !== undefined && table.notes.length > 0) output.push("", ...table.notes.map((note) => `- ${note}`));
  return output.join("\n");
}
