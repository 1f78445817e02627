// How many runs each property gets in a vitest suite: the view properties may run fewer over a store.
import { VIEW_PROPERTIES } from "../properties/all-properties.js";

export interface PropertyRunSettings {
  /** Every property's runs. */
  readonly runs: number;
  /** The view properties' runs, when a suite lowers them (`viewPropertyRuns`). */
  readonly viewPropertyRuns?: number | undefined;
  /** Runs set through `CTXKIT_CONFORMANCE_RUNS`: they win over both, so a replay runs what it names. */
  readonly environmentRuns?: number | undefined;
}

/** The runs of the property named `name`. */
export function propertyRuns(name: string, settings: PropertyRunSettings): number {
  if (settings.environmentRuns !== undefined) return settings.environmentRuns;
  return settings.viewPropertyRuns !== undefined && VIEW_PROPERTIES.includes(name) ? settings.viewPropertyRuns : settings.runs;
}
