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
  ])("should turn %j into a usage error", (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });
});
