import { describe, expect, it } from "vitest";
import { recommendConfiguration, type TuneConstraint } from "./recommend-configuration.js";
import { DEFAULT_MAX_CONFIGS } from "./tune-arguments.js";
import { type SearchedPoint, searchConfigurations } from "./search-configurations.js";
import { splitFrontier } from "./tune-frontier.js";
import { baselineKnobs, defaultTuneSpace, isValidKnobs, knobsKey, neighbourKnobs, type TuneKnobs } from "./tune-space.js";

const space = defaultTuneSpace();

/**
 * A made-up session, no replay: a larger view costs more and keeps more; the summary makes the old part cheap
 * and keeps some of it; a very small target refuses (a fault).
 */
function modelled(knobs: TuneKnobs): SearchedPoint {
  const size = knobs.compactThreshold * 0.3 + knobs.targetRatio + knobs.keepRecent * 0.02 + knobs.digestIdentifiers * 0.001;
  const cost = knobs.summary ? size * 0.8 + 0.05 : size;
  const retention = Math.min(1, 0.4 + size * (knobs.summary ? 0.75 : 0.8));
  const rounded = (value: number) => Math.round(value * 1000) / 1000;
  return {
    knobs,
    cost: rounded(cost),
    retention: rounded(retention),
    faults: knobs.targetRatio === 0.15 && knobs.keepRecent === 0 ? 1 : 0,
  };
}

async function search(constraint: TuneConstraint, maxConfigs: number, isTimeUp?: () => boolean) {
  const evaluated: string[] = [];
  const result = await searchConfigurations({
    space,
    constraint,
    maxConfigs,
    evaluate: async (knobs) => {
      evaluated.push(knobsKey(knobs));
      return modelled(knobs);
    },
    ...(isTimeUp === undefined ? {} : { isTimeUp }),
  });
  return { ...result, evaluated };
}

describe("searchConfigurations", () => {
  it("should replay each configuration once, all of them valid, starting from core's defaults", async () => {
    const { points, evaluated, stop } = await search({ kind: "min-retention", value: 0.8 }, 1_000);
    expect(stop).toBe("converged");
    expect(new Set(evaluated).size).toBe(evaluated.length);
    expect(points.every((point) => isValidKnobs(point.knobs))).toBe(true);
    expect(evaluated[0]).toBe(knobsKey(baselineKnobs()));
  });

  it("should end converged only when no frontier point has an untried neighbour", async () => {
    for (const constraint of [{ kind: "min-retention", value: 0.8 }, { kind: "max-cost", value: 0.5 }, { kind: "balance" }] as const) {
      const { points, evaluated } = await search(constraint, 1_000);
      const tried = new Set(evaluated);
      for (const point of splitFrontier(points).frontier)
        expect(neighbourKnobs(point.knobs, space).filter((knobs) => !tried.has(knobsKey(knobs)))).toEqual([]);
    }
  });

  it("should find the answer the whole space gives within the default bound, led by the constraint", async () => {
    const everything = allKnobs().map(modelled);
    for (const constraint of [{ kind: "min-retention", value: 0.8 }, { kind: "max-cost", value: 0.5 }, { kind: "balance" }] as const) {
      const { points } = await search(constraint, DEFAULT_MAX_CONFIGS);
      const best = recommendConfiguration(splitFrontier(everything).frontier, constraint);
      expect(recommendConfiguration(splitFrontier(points).frontier, constraint)).toMatchObject({
        cost: best!.cost,
        retention: best!.retention,
      });
    }
  });

  it("should stop at maxConfigs", async () => {
    const { points, stop } = await search({ kind: "balance" }, 7);
    expect(stop).toBe("max-configs");
    expect(points).toHaveLength(7);
  });

  it("should stop at the time limit, leaving out a replay it cut short", async () => {
    let replays = 0;
    const result = await searchConfigurations({
      space,
      constraint: { kind: "balance" },
      maxConfigs: 100,
      evaluate: async (knobs) => {
        replays += 1;
        if (replays === 3) throw new Error("aborted by the time limit");
        return modelled(knobs);
      },
      isTimeUp: () => replays >= 3,
    });
    expect(result.stop).toBe("time-limit");
    expect(result.points).toHaveLength(2);
  });

  it("should pass on an error that is not the time limit's", async () => {
    const failing = searchConfigurations({
      space,
      constraint: { kind: "balance" },
      maxConfigs: 10,
      evaluate: async () => {
        throw new Error("interrupted");
      },
    });
    await expect(failing).rejects.toThrow("interrupted");
  });
});

function allKnobs(): TuneKnobs[] {
  const all: TuneKnobs[] = [];
  for (const compactThreshold of space.compactThreshold)
    for (const targetRatio of space.targetRatio)
      for (const keepRecent of space.keepRecent)
        for (const digestIdentifiers of space.digestIdentifiers)
          for (const summary of space.summary) all.push({ compactThreshold, targetRatio, keepRecent, digestIdentifiers, summary });
  return all.filter(isValidKnobs);
}
