// The offload-retrieval property on context-simple with core's offload-tool-results in its pipeline.
import { describe, expect, it } from "vitest";
import * as contextSimple from "../../context-simple/src/index.js";
import { DEFAULT_RUNS, runConformance } from "../src/index.js";

const offloading = { config: { strategies: ["offload-tool-results", "truncate"] } };

describe("offload-retrieval on context-simple with offload-tool-results", () => {
  // Known bug in core: retrieve_tool_result reads the latest result with the id it is given
  // (history.findLast), so a reference to an earlier turn's result whose tool-call id a later turn
  // reused retrieves the later turn's output. Remove `.fails` once core resolves the reference exactly.
  it.fails("should retrieve each offloaded result exactly, though later turns reuse its tool-call id", async () => {
    const report = await runConformance(contextSimple, { ...offloading, only: ["offload-retrieval"], runs: DEFAULT_RUNS, seed: 1 });
    expect(report.checks[0]?.reason).toBeUndefined();
  });
});
