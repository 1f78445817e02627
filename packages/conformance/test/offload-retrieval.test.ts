// The offload-retrieval property on context-simple with core's offload-tool-results in its pipeline.
import { describe, expect, it } from "vitest";
import * as contextSimple from "../../context-simple/src/index.js";
import { DEFAULT_RUNS, runConformance } from "../src/index.js";

const offloading = { config: { strategies: ["offload-tool-results", "truncate"] } };

describe("offload-retrieval on context-simple with offload-tool-results", () => {
  // Core's references name the result's history index beside its call id: a retrieval by call id
  // alone returned the latest result with that id, the wrong one when a later turn reused the id.
  it("should retrieve each offloaded result exactly, though later turns reuse its tool-call id", async () => {
    const report = await runConformance(contextSimple, { ...offloading, only: ["offload-retrieval"], runs: DEFAULT_RUNS, seed: 1 });
    expect(report.checks[0]?.reason).toBeUndefined();
    // Not a vacuous pass: the runs met and followed offload references.
    expect(report.checks[0]?.exercised).toMatchObject({ what: "offload references retrieved" });
    expect(report.checks[0]?.exercised?.count).toBeGreaterThan(20);
  });

  // Core's default pipeline offloads nothing: the property used to pass there, having retrieved 0 references.
  it("should skip, saying why, on a setup that offloads nothing (regression)", async () => {
    const report = await runConformance(contextSimple, { only: ["offload-retrieval"], runs: DEFAULT_RUNS, seed: 1 });
    expect(report.checks[0]).toMatchObject({ status: "skip", exercised: { count: 0 } });
    expect(report.checks[0]?.reason).toMatch(/^the setup offloads no tool result: .*put offload-tool-results in its strategies/);
  });
});
