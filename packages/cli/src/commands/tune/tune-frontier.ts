// The Pareto frontier of cost against retention over the configurations replayed, with the faulty ones set apart.

/** What the frontier needs of a replayed configuration. */
export interface TunePoint {
  /** Billed input ÷ the full history's: lower is better. */
  readonly cost: number;
  /** Share of the facts the calls used that were in their views: higher is better. */
  readonly retention: number;
  /** Views refused, with a split tool pair, or over the budget (and replays that failed): any of them excludes the point. */
  readonly faults: number;
}

export const isFaulty = (point: TunePoint): boolean => point.faults > 0;

/** `first` is as cheap or cheaper and retains as much or more: `second` has nothing to offer over it. */
export const coversPoint = (first: TunePoint, second: TunePoint): boolean =>
  first.cost <= second.cost && first.retention >= second.retention;

export interface FrontierSplit<Point extends TunePoint> {
  /** By cost, cheapest first; retention rises strictly along it. */
  readonly frontier: Point[];
  /** Covered by a frontier point: worse on one axis and no better on the other, or equal to one found earlier. */
  readonly dominated: Point[];
  /** Excluded for a refusal, a pair fault, an over-budget view or a failed replay, whatever their figures. */
  readonly faulty: Point[];
}

/**
 * Splits `points` (in the order they were found) into the frontier, the dominated and the faulty. Of
 * points with equal figures only the first found stays on the frontier: the others would only repeat it.
 */
export function splitFrontier<Point extends TunePoint>(points: readonly Point[]): FrontierSplit<Point> {
  const faulty = points.filter(isFaulty);
  const sound = points.filter((point) => !isFaulty(point));
  // By cost, then retention best first, then the order found: the first of each run of equal costs is the only candidate.
  const sorted = sound
    .map((point, order) => ({ point, order }))
    .sort(
      (first, second) =>
        first.point.cost - second.point.cost || second.point.retention - first.point.retention || first.order - second.order,
    )
    .map(({ point }) => point);
  const frontier: Point[] = [];
  const dominated: Point[] = [];
  for (const point of sorted) {
    const last = frontier.at(-1);
    if (last === undefined || point.retention > last.retention) frontier.push(point);
    else dominated.push(point);
  }
  return { frontier, dominated, faulty };
}
