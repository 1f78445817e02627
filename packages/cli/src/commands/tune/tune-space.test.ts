import { contextConfigSchema } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import {
  baselineKnobs,
  countConfigurations,
  defaultTuneSpace,
  isValidKnobs,
  type KnobName,
  knobsKey,
  neighbourKnobs,
  type TuneKnobs,
} from "./tune-space.js";

const space = defaultTuneSpace();

describe("the tune space", () => {
  it("should hold core's default thresholds, and the baseline in it", () => {
    const defaults = contextConfigSchema.parse({});
    expect(space.compactThreshold).toContain(defaults.compactThreshold);
    expect(space.targetRatio).toContain(defaults.targetRatio);
    const baseline = baselineKnobs();
    for (const name of Object.keys(space) as KnobName[]) expect(space[name] as readonly unknown[]).toContain(baseline[name]);
  });

  it("should count the valid configurations, a target never above its threshold", () => {
    let count = 0;
    for (const compactThreshold of space.compactThreshold)
      for (const targetRatio of space.targetRatio)
        for (const keepRecent of space.keepRecent)
          for (const digestIdentifiers of space.digestIdentifiers)
            for (const summary of space.summary)
              if (isValidKnobs({ compactThreshold, targetRatio, keepRecent, digestIdentifiers, summary })) count += 1;
    expect(countConfigurations(space)).toBe(count);
    expect(isValidKnobs({ ...baselineKnobs(), compactThreshold: 0.6, targetRatio: 0.7 })).toBe(false);
  });

  it("should give as neighbours the valid points one knob one step away, each once", () => {
    const knobs: TuneKnobs = { compactThreshold: 0.6, targetRatio: 0.55, keepRecent: 0, digestIdentifiers: 20, summary: false };
    const neighbours = neighbourKnobs(knobs, space);
    expect(neighbours.map(knobsKey)).toEqual([
      "0.7/0.55/0/20/no-summary",
      "0.6/0.4/0/20/no-summary",
      "0.6/0.55/1/20/no-summary",
      "0.6/0.55/0/0/no-summary",
      "0.6/0.55/0/80/no-summary",
      "0.6/0.55/0/20/summary",
    ]);
    expect(neighbours.every(isValidKnobs)).toBe(true);
  });
});
