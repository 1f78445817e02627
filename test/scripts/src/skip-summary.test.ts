import { describe, expect, it } from "vitest";
import { formatSkipSummary, groupSkips, NO_REASON, reasonInTitle, skipReason } from "../../../scripts/skip-summary.mjs";

const root = "/repo";

/** A record as scripts/skip-reporter.mjs writes it. */
function skipped(file: string, titles: string[], extra: { todo?: boolean; note?: string } = {}) {
  return { file: `${root}/${file}`, titles, todo: extra.todo ?? false, note: extra.note };
}

const postgresSuite = "PostgresMessageStore (skipped: no PostgreSQL server; run `bash scripts/postgres.sh start`)";
// The skips the repository's suites produce, by name, by suite and at run time.
const records = [
  skipped("packages/context-postgres/src/store.test.ts", [postgresSuite, "should append"]),
  skipped("packages/context-postgres/src/store.test.ts", [postgresSuite, "should load"]),
  skipped("packages/context-postgres/test/conformance.test.ts", [
    "conformance (skipped: no PostgreSQL server; run `bash scripts/postgres.sh start`)",
    "order",
  ]),
  skipped("packages/conformance/src/vitest.test.ts", ["simple", "Resume (resume) — skipped: the module declares no persistence"]),
  skipped("packages/core/src/units/real.test.ts", [
    "tool pairs in real transcripts (skipped when ../shared/data/transcripts is absent)",
    "should pair",
  ]),
  skipped("packages/core/src/units/real.test.ts", ["plain", "should do something later"]),
  skipped("packages/core/src/units/real.test.ts", ["plain", "should be written"], { todo: true }),
  skipped("test/docs/src/readme-snippets.test.ts", ["README.md", "line 12: not run (needs an API key (OpenAI))"]),
  skipped("packages/context-simple/src/conformance.test.ts", ["simple", "properties", "should retrieve (offload-retrieval, 200 runs)"], {
    note: "the setup offloads no tool result",
  }),
];

describe("reasonInTitle", () => {
  it("should read a reason in parentheses, up to the parenthesis that closes it", () => {
    expect(reasonInTitle("store (skipped: no server (on 127.0.0.1)) extra")).toBe("no server (on 127.0.0.1)");
  });

  it("should read a reason that runs to the end of the title", () => {
    expect(reasonInTitle("Resume (resume) — skipped: the module declares no persistence")).toBe("the module declares no persistence");
  });

  it("should read a condition and a snippet's reason", () => {
    expect(reasonInTitle("replay (skipped when the data folder is absent)")).toBe("when the data folder is absent");
    expect(reasonInTitle("line 3: not run (needs a key)")).toBe("needs a key");
  });

  it("should give undefined for a title without one", () => {
    expect(reasonInTitle("should skip the first message")).toBeUndefined();
  });
});

describe("skipReason", () => {
  it("should prefer the test's own reason to its suite's", () => {
    expect(skipReason(["suite (skipped: outer)", "test (skipped: inner)"])).toBe("inner");
    expect(skipReason(["suite (skipped: outer)", "test"])).toBe("outer");
  });
});

describe("groupSkips", () => {
  const groups = groupSkips(records, root);

  it("should group every skipped test by its reason, largest group first, with where they are", () => {
    expect(groups.map((group) => [group.count, group.reason, group.places])).toEqual([
      [3, "no PostgreSQL server; run `bash scripts/postgres.sh start`", ["packages/context-postgres"]],
      [1, "needs an API key (OpenAI)", ["test/docs"]],
      [1, NO_REASON, ["packages/core"]],
      [1, "the module declares no persistence", ["packages/conformance"]],
      [1, "the setup offloads no tool result", ["packages/context-simple"]],
      [1, "todo", ["packages/core"]],
      [1, "when ../shared/data/transcripts is absent", ["packages/core"]],
    ]);
  });

  it("should take a runtime skip's note as its reason", () => {
    expect(groups.find((group) => group.places.includes("packages/context-simple"))?.reason).toBe("the setup offloads no tool result");
  });

  it("should name each test that gives no reason", () => {
    expect(groups.find((group) => group.reason === NO_REASON)?.tests).toEqual([
      "packages/core/src/units/real.test.ts > plain > should do something later",
    ]);
  });
});

describe("formatSkipSummary", () => {
  it("should give the total, then one line per reason with its count", () => {
    const lines = formatSkipSummary(groupSkips(records, root));
    expect(lines[0]).toBe("Skipped: 9 tests, for 7 reasons:");
    expect(lines[1]).toBe("  3  no PostgreSQL server; run `bash scripts/postgres.sh start`  (packages/context-postgres)");
    expect(lines).toContain("       packages/core/src/units/real.test.ts > plain > should do something later");
  });

  it("should say so when nothing was skipped", () => {
    expect(formatSkipSummary(groupSkips([], root))).toEqual(["Skipped: none."]);
  });
});
