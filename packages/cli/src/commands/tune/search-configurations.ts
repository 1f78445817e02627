// The search: a Pareto local search over the knobs, led by the constraint, each configuration replayed at most once.
import { rankByConstraint, type TuneConstraint } from "./recommend-configuration.js";
import { splitFrontier, type TunePoint } from "./tune-frontier.js";
import { baselineKnobs, cornerKnobs, isValidKnobs, knobsKey, neighbourKnobs, type TuneKnobs, type TuneSpace } from "./tune-space.js";

export interface SearchedPoint extends TunePoint {
  readonly knobs: TuneKnobs;
}

/** Why the search ended: nothing left to try near the frontier, or a bound. */
export type SearchStop = "converged" | "max-configs" | "time-limit";

export interface SearchOptions<Point extends SearchedPoint> {
  readonly space: TuneSpace;
  readonly constraint: TuneConstraint;
  /** At most this many configurations are replayed. */
  readonly maxConfigs: number;
  /** Replays one configuration; called once per configuration. */
  readonly evaluate: (knobs: TuneKnobs) => Promise<Point>;
  /** Whether the time limit has passed: checked before each replay, and asked when a replay throws. */
  readonly isTimeUp?: () => boolean;
}

export interface SearchResult<Point extends SearchedPoint> {
  /** Every configuration replayed, in the order replayed. */
  readonly points: Point[];
  readonly stop: SearchStop;
}

/**
 * Starts from core's defaults (with the summary off and on) and the two corners of the space (every knob
 * lowest, every knob highest), then, again and again, replays the first untried neighbour (one knob one
 * step away) of the frontier point that ranks best under the constraint, then of the next one. A better
 * point found moves the search there. It ends when no frontier point has an untried neighbour, or at a bound.
 */
export async function searchConfigurations<Point extends SearchedPoint>(options: SearchOptions<Point>): Promise<SearchResult<Point>> {
  const { space, constraint, maxConfigs, evaluate, isTimeUp = () => false } = options;
  const points: Point[] = [];
  const tried = new Set<string>();
  const baseline = baselineKnobs();
  const seeds = [baseline, { ...baseline, summary: true }, cornerKnobs(space, "first"), cornerKnobs(space, "last")].filter(isValidKnobs);
  const next = (): TuneKnobs | undefined => {
    const seed = seeds.find((knobs) => !tried.has(knobsKey(knobs)));
    if (seed !== undefined) return seed;
    for (const point of rankByConstraint(splitFrontier(points).frontier, constraint)) {
      const neighbour = neighbourKnobs(point.knobs, space).find((knobs) => !tried.has(knobsKey(knobs)));
      if (neighbour !== undefined) return neighbour;
    }
    return undefined;
  };
  for (;;) {
    const knobs = next();
    if (knobs === undefined) return { points, stop: "converged" };
    if (points.length >= maxConfigs) return { points, stop: "max-configs" };
    if (isTimeUp()) return { points, stop: "time-limit" };
    tried.add(knobsKey(knobs));
    try {
      points.push(await evaluate(knobs));
    } catch (error) {
      // A replay cut short by the time limit is left out: its figures would cover part of the sessions.
      if (isTimeUp()) return { points, stop: "time-limit" };
      throw error;
    }
  }
}
