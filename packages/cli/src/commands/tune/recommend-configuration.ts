// The configuration `ctxkit tune` recommends: the frontier point that best meets the constraint given.
import type { TunePoint } from "./tune-frontier.js";

export type TuneConstraint =
  | { readonly kind: "min-retention"; readonly value: number }
  | { readonly kind: "max-cost"; readonly value: number }
  /** Neither given: the cheapest within `BALANCE_RETENTION_MARGIN` of the best retention found. */
  | { readonly kind: "balance" };

/** How much retention the balance gives up for a lower cost: five percentage points below the best found. */
export const BALANCE_RETENTION_MARGIN = 0.05;

/**
 * The constraint the balance stands for over `points`: a minimum retention five points below the best
 * retention among them (a frontier's last point). The other constraints are their own.
 */
export function resolveConstraint(points: readonly TunePoint[], constraint: TuneConstraint): Exclude<TuneConstraint, { kind: "balance" }> {
  if (constraint.kind !== "balance") return constraint;
  const best = Math.max(0, ...points.map((point) => point.retention));
  return { kind: "min-retention", value: Math.max(0, best - BALANCE_RETENTION_MARGIN) };
}

export const meetsConstraint = (point: TunePoint, constraint: TuneConstraint): boolean =>
  constraint.kind === "min-retention"
    ? point.retention >= constraint.value
    : constraint.kind === "max-cost"
      ? point.cost <= constraint.value
      : true;

/**
 * How far `point` is from the best answer under `constraint`, smaller first: points that meet it by the
 * objective (cost, or lost retention), then the others by how far they miss it. The search explores
 * around the first points of this order; the recommendation is the first if it meets.
 */
export function constraintRank(point: TunePoint, constraint: Exclude<TuneConstraint, { kind: "balance" }>): number {
  // A missed constraint ranks after every point that meets one: a cost is never near a thousand times the full history's.
  const MISSED = 1_000;
  switch (constraint.kind) {
    case "min-retention":
      return point.retention >= constraint.value ? point.cost : MISSED + constraint.value - point.retention;
    case "max-cost":
      return point.cost <= constraint.value ? 1 - point.retention : MISSED + point.cost - constraint.value;
  }
}

/** `points` from the best answer to the worst; ties go to the cheaper, then to the one found first. */
export function rankByConstraint<Point extends TunePoint>(points: readonly Point[], constraint: TuneConstraint): Point[] {
  const resolved = resolveConstraint(points, constraint);
  return points
    .map((point, order) => ({ point, order, rank: constraintRank(point, resolved) }))
    .sort((first, second) => first.rank - second.rank || first.point.cost - second.point.cost || first.order - second.order)
    .map(({ point }) => point);
}

/**
 * The recommended point of a frontier (`splitFrontier`'s): under `min-retention`, the cheapest whose
 * retention reaches it; under `max-cost`, the best retention at that cost or less; under `balance`, the
 * cheapest within five points of the best retention. Undefined when no point meets the constraint.
 */
export function recommendConfiguration<Point extends TunePoint>(frontier: readonly Point[], constraint: TuneConstraint): Point | undefined {
  const [best] = rankByConstraint(frontier, constraint);
  return best !== undefined && meetsConstraint(best, resolveConstraint(frontier, constraint)) ? best : undefined;
}

/** The constraint in words, for the report. */
export function describeConstraint(constraint: TuneConstraint): string {
  switch (constraint.kind) {
    case "min-retention":
      return `the cheapest with retention ≥ ${(constraint.value * 100).toFixed(1)}%`;
    case "max-cost":
      return `the best retention at cost ≤ ${constraint.value.toFixed(2)}x`;
    case "balance":
      return `the best balance: the cheapest within ${BALANCE_RETENTION_MARGIN * 100} points of the best retention (give --min-retention or --max-cost to choose)`;
  }
}
