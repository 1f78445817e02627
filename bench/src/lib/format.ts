// Cells shared by the peer tables: ratios to ctxkit, shares, and a bound.
import { formatDuration } from "./measure.js";

/** `value / baseline` as "12×" or "0.85×"; "—" when either is missing. */
export function formatRatio(value: number | undefined, baseline: number | undefined, prefix = ""): string {
  if (value === undefined || baseline === undefined || !Number.isFinite(value) || !(baseline > 0)) return "—";
  const ratio = value / baseline;
  if (ratio < 0.1) return `${prefix}${ratio.toPrecision(2)}×`;
  const digits = ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2;
  return `${prefix}${ratio.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })}×`;
}

export function formatShare(part: number, whole: number): string {
  return whole === 0 ? "—" : `${((part / whole) * 100).toFixed(1)}%`;
}

export function formatBound(limitMs: number): string {
  return `> ${formatDuration(limitMs)}`;
}

export function formatBudget(budget: number): string {
  return budget >= 1_000_000 ? `${budget / 1_000_000}M` : `${budget / 1_000}k`;
}

/** Like formatDuration, in minutes or hours once seconds get long. */
export function formatLongDuration(milliseconds: number): string {
  if (milliseconds < 120_000) return formatDuration(milliseconds);
  if (milliseconds < 7_200_000) return `${(milliseconds / 60_000).toFixed(milliseconds < 600_000 ? 1 : 0)} min`;
  return `${(milliseconds / 3_600_000).toFixed(1)} h`;
}
