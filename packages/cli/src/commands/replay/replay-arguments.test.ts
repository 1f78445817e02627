import { describe, expect, it } from "vitest";
import { ANTHROPIC_PRICING, OPENAI_PRICING } from "../../replay/prompt-cache-pricing.js";
import { DEFAULT_BUDGETS, parseReplayArguments } from "./replay-arguments.js";

describe("parseReplayArguments", () => {
  it("should replay the default at 24k and 64k under Anthropic prices when given only files", () => {
    expect(parseReplayArguments(["a.jsonl", "b.json"])).toEqual({
      help: false,
      files: ["a.jsonl", "b.json"],
      configurations: [{ name: "default", option: "--preset" }],
      budgets: DEFAULT_BUDGETS,
      price: ANTHROPIC_PRICING,
      debug: false,
    });
  });

  it("should take --preset, --config and --compare in that order, each named once", () => {
    const { configurations } = parseReplayArguments(["a.jsonl", "--compare", "truncate, plan.json,truncate", "--preset", "summarize"]);
    expect(configurations).toEqual([
      { name: "summarize", option: "--preset" },
      { name: "truncate", option: "--compare" },
      { name: "plan.json", option: "--compare" },
    ]);
  });

  it("should read budgets with a k suffix or underscores, each once", () => {
    expect(parseReplayArguments(["a.jsonl", "--budget", "32k,24_000,32000"]).budgets).toEqual([32_000, 24_000]);
  });

  it("should override a price model's multipliers, keeping its name", () => {
    expect(parseReplayArguments(["a.jsonl", "--price", "openai", "--cache-read", "0.5"]).price).toEqual({
      ...OPENAI_PRICING,
      cacheRead: 0.5,
    });
  });

  it.each([
    [["a.jsonl", "--budget", "0"], '--budget: "0" is not a token count'],
    [["a.jsonl", "--budget", ","], "--budget: give at least one token count"],
    [["a.jsonl", "--compare", ","], "--compare: give presets or config files"],
    [["a.jsonl", "--json="], "--json: give a file to write, or - for stdout"],
    [["--budget", "24000"], "name at least one session file"],
  ])("should refuse %j, naming the option", (argv, message) => {
    expect(() => parseReplayArguments(argv)).toThrow(message);
  });
});
