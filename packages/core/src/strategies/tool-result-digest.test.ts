import { describe, expect, it } from "vitest";
import { digestToolResult, listIdentifiers } from "./tool-result-digest.js";

describe("listIdentifiers", () => {
  it("finds paths, dotted, snake_case and camelCase names, ids and long numbers, in order of first appearance, once each", () => {
    const text =
      "Read /home/user/app/lib/router.ex and src/index.ts; Spotter.Repo.get(session_id) calls createContextManager; commit a2898e3, flight HAT136, order 3482917; src/index.ts again";
    expect(listIdentifiers(text, 100)).toEqual({
      identifiers: [
        "/home/user/app/lib/router.ex",
        "src/index.ts",
        "Spotter.Repo.get",
        "session_id",
        "createContextManager",
        "a2898e3",
        "HAT136",
        "3482917",
      ],
      total: 8,
    });
  });

  it("leaves out words, line numbers, versions, flags, CSS lengths, closing tags and prose with slashes", () => {
    expect(
      listIdentifiers(
        "The Error on line 42: and/or 3.14 in version 1.2.13 with --quick, width 0.5rem, </pre>, python3 e.g. well-known",
        100,
      ),
    ).toEqual({ identifiers: [], total: 0 });
  });

  it("keeps the first maxCount and counts the rest", () => {
    expect(listIdentifiers("alpha_one beta_two gamma_three", 2)).toEqual({ identifiers: ["alpha_one", "beta_two"], total: 3 });
  });
});

describe("digestToolResult", () => {
  it("gives the first error line, cut when long, then the identifiers", () => {
    const long = `Error: ${"x".repeat(300)}`;
    expect(digestToolResult(`ok\n${long}\nsee lib/app.ex`, { maxIdentifiers: 5 })).toBe(
      `first error: ${long.slice(0, 160)}…; it named: lib/app.ex`,
    );
  });

  it("is empty for an output with neither", () => {
    expect(digestToolResult("all good, 3 files changed", { maxIdentifiers: 5 })).toBe("");
  });
});
