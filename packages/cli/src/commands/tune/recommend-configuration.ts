// The configuration `ctxkit tune` recommends: the frontier point that best meets the constraint given.
import type { TunePoint } from "./tune-frontier.js";

export type TuneConstraint =
  | { readonly kind: "min-retention"; readonly value: number }
  | { readonly kind: "max-cost"; readonly value: number }
  /** Neither given: the largest retention − cost, a point of retention worth a point of cost (0.01 = 1%). */
  | { readonly kind: "balance" };

export const meetsConstraint = (point: TunePoint, constraint: TuneConstraint): boolean =>
  constraint.kind === "min-retention"
    ? point.retention >= constraint.value
    : constraint.kind === "max-cost"
      ? point.cost <= constraint.value
      : true;

/**
 * How far `point` is from the best answer under `constraint`, smaller first: points that meet it by the
 * objective (cost, or lost retention, or cost − retention), then the others by how far they miss it.
 * The search explores around the first points of this order; the recommendation is the first if it meets.
 */
export function constraintRank(point: TunePoint, constraint: TuneConstraint): number {
  // A missed constraint ranks after every point that meets one: objectives lie within [-1, 2) for costs up to 2.
  const MISSED = 1_000;
  switch (constraint.kind) {
    case "min-retention":
      return point.retention >= constraint.value ? point.cost : MISSED + constraint.value - point.retention;
    case "max-cost":
      return point.cost <= constraint.value ? 1 - point.retention : MISSED + point.cost - constraint.value;
    case "balance":
      return point.cost - point.retention;
  }
}

/** `points` from the best answer to the worst; ties go to the cheaper, then to the one found first. */
export function rankByConstraint<Point extends TunePoint>(points: readonly Point[], constraint: TuneConstraint): Point[] {
  return points
    .map((point, order) => ({ point, order, rank: constraintRank(point, constraint) }))
    .sort((first, second) => first.rank - second.rank || first.point.cost - second.point.cost || first.order - second.order)
    .map(({ point }) => point);
}

/**
 * The recommended point of a frontier (`splitFrontier`'s): under `min-retention`, the cheapest whose
 * retention reaches it; under `max-cost`, the best retention at that cost or less; under `balance`, the
 * largest retention − cost. Undefined when no point meets the constraint.
 */
export function recommendConfiguration<Point extends TunePoint>(frontier: readonly Point[], constraint: TuneConstraint): Point | undefined {
  const [best] = rankByConstraint(frontier, constraint);
  return best !== undefined && meetsConstraint(best, constraint) ? best : undefined;
}

/** The constraint in words, for the report. */
export function describeConstraint(constraint: TuneConstraint): string {
  switch (constraint.kind) {
    case "min-retention":
      return `the cheapest with retention ≥ ${(constraint.value * 100).toFixed(1)}%`;
    case "max-cost":
      return `the best retention at cost ≤ ${constraint.value.toFixed(2)}x`;
    case "balance":
      return "the best balance (largest retention − cost; give --min-retention or --max-cost to choose)";
  }
}
