// The configurations `ctxkit tune` searches: five knobs, a few values each, and the neighbours of a point in that space.
import { contextConfigSchema } from "@ctxkit/core/kit";

/** One point of the space; each knob is a real option of core's config or of a pipeline strategy. */
export interface TuneKnobs {
  /** `compactThreshold`: compact when a view passes this share of the budget. */
  readonly compactThreshold: number;
  /** `targetRatio`: compact down to this share of the budget. */
  readonly targetRatio: number;
  /** `clear-tool-results`' `keepRecent`: the newest tool results left untouched. */
  readonly keepRecent: number;
  /** `clear-tool-results`' `maxIdentifiers`: how many identifiers a cleared result's digest lists. */
  readonly digestIdentifiers: number;
  /** Whether `@ctxkit/strategy-summary` summarizes the oldest units before `truncate` drops them. */
  readonly summary: boolean;
}

export type KnobName = keyof TuneKnobs;

/** The values each knob takes, in increasing order. */
export type TuneSpace = { readonly [Name in KnobName]: readonly TuneKnobs[Name][] };

const withValue = (values: readonly number[], value: number): number[] => [...new Set([...values, value])].sort((a, b) => a - b);

/**
 * Four or so values per knob, around core's defaults (read from its config schema, so the search always
 * holds the default thresholds wherever they are tuned): 4 × 4 × 4 × 3 × 2 configurations, of which the
 * search replays a few dozen.
 */
export function defaultTuneSpace(): TuneSpace {
  const defaults = contextConfigSchema.parse({});
  return {
    compactThreshold: withValue([0.6, 0.7, 0.8, 0.9], defaults.compactThreshold),
    targetRatio: withValue([0.15, 0.25, 0.4, 0.55], defaults.targetRatio),
    keepRecent: [0, 1, 3, 5],
    digestIdentifiers: [0, 20, 80],
    summary: [false, true],
  };
}

/** Core's default thresholds with the default pipeline's tool-result options (one result kept, an 80-identifier digest). */
export function baselineKnobs(): TuneKnobs {
  const defaults = contextConfigSchema.parse({});
  return {
    compactThreshold: defaults.compactThreshold,
    targetRatio: defaults.targetRatio,
    keepRecent: 1,
    digestIdentifiers: 80,
    summary: false,
  };
}

/** A config core accepts: a target above the threshold would compact on every view. */
export const isValidKnobs = (knobs: TuneKnobs): boolean => knobs.targetRatio <= knobs.compactThreshold;

export function knobsKey(knobs: TuneKnobs): string {
  return `${knobs.compactThreshold}/${knobs.targetRatio}/${knobs.keepRecent}/${knobs.digestIdentifiers}/${knobs.summary ? "summary" : "no-summary"}`;
}

/** What the table and the progress line call a configuration. */
export function describeKnobs(knobs: TuneKnobs): string {
  return `threshold ${knobs.compactThreshold} · target ${knobs.targetRatio} · keepRecent ${knobs.keepRecent} · digest ${knobs.digestIdentifiers} · summary ${knobs.summary ? "on" : "off"}`;
}

/** Each knob's lowest or highest value at once: the two corners the search starts from beside the baseline. */
export function cornerKnobs(space: TuneSpace, end: "first" | "last"): TuneKnobs {
  const pick = <Value>(values: readonly Value[]): Value => (end === "first" ? values[0]! : values.at(-1)!);
  return {
    compactThreshold: pick(space.compactThreshold),
    targetRatio: pick(space.targetRatio),
    keepRecent: pick(space.keepRecent),
    digestIdentifiers: pick(space.digestIdentifiers),
    summary: end === "last",
  };
}

/** The valid points one step away along one knob (the next value up or down), knob by knob. */
export function neighbourKnobs(knobs: TuneKnobs, space: TuneSpace): TuneKnobs[] {
  const neighbours: TuneKnobs[] = [];
  for (const name of Object.keys(space) as KnobName[]) {
    const values = space[name] as readonly (number | boolean)[];
    const index = values.indexOf(knobs[name]);
    for (const step of [-1, 1]) {
      const value = values[index + step];
      if (index === -1 || value === undefined) continue;
      const neighbour = { ...knobs, [name]: value } as TuneKnobs;
      if (isValidKnobs(neighbour)) neighbours.push(neighbour);
    }
  }
  return neighbours;
}

/** How many valid configurations the space holds. */
export function countConfigurations(space: TuneSpace): number {
  let count = 0;
  for (const compactThreshold of space.compactThreshold)
    for (const targetRatio of space.targetRatio) if (targetRatio <= compactThreshold) count += 1;
  return count * space.keepRecent.length * space.digestIdentifiers.length * space.summary.length;
}
