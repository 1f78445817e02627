import { describe, expect, it } from "vitest";
import { parseArguments, UsageError } from "./parse-arguments.js";

describe("parseArguments", () => {
  it("should read modules, flags and values, inline or not", () => {
    expect(
      parseArguments([
        "a",
        "b",
        "--runs=5",
        "--seed",
        "7",
        "--only",
        "pairing,budget",
        "--json",
        "--no-color",
        "--config",
        '{"maxTokens":9}',
      ]),
    ).toEqual({
      modules: ["a", "b"],
      json: true,
      color: false,
      help: false,
      runs: 5,
      seed: 7,
      only: ["pairing", "budget"],
      config: { maxTokens: 9 },
    });
  });

  it("should read every declaration the vitest API has: restart, summarizer, capabilities, concurrent adds, timeout", () => {
    expect(
      parseArguments([
        "a",
        "--restart",
        "--summarizer",
        "--shared-store",
        "--capabilities",
        "compact,-events",
        "--concurrent-adds",
        "8",
        "--timeout=900",
      ]),
    ).toMatchObject({
      restart: true,
      summarizer: true,
      sharedStore: true,
      capabilities: { compact: true, events: false },
      concurrentAdds: 8,
      timeoutMs: 900,
    });
  });

  it("should take a negative seed written with =", () => {
    expect(parseArguments(["a", "--seed=-5"]).seed).toBe(-5);
  });

  it("should accept -h alone", () => {
    expect(parseArguments(["-h"]).help).toBe(true);
  });

  it.each([
    [["x", "--bogus"], /^unknown option --bogus$/],
    [["x", "--runs"], /--runs needs a value/],
    [["x", "--json=yes"], /--json/],
    [[], /name at least one module/],
    [["x", "--capabilities", "telepathy"], /--capabilities names compact/],
  ])("should turn %j into a usage error", (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });
});
