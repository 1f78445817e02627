import { describe, expect, it } from "vitest";
import { ANTHROPIC_PRICING, OPENAI_PRICING } from "../../replay/prompt-cache-pricing.js";
import { UsageError } from "../usage-error.js";
import { DEFAULT_MAX_CONFIGS, DEFAULT_TIME_LIMIT_MS, parseTuneArguments } from "./tune-arguments.js";

describe("parseTuneArguments", () => {
  it("should balance cost and retention within the default bounds when given only files and a budget", () => {
    expect(parseTuneArguments(["a.jsonl", "b.json", "--budget", "24k"])).toEqual({
      help: false,
      files: ["a.jsonl", "b.json"],
      budget: 24_000,
      constraint: { kind: "balance" },
      maxConfigs: DEFAULT_MAX_CONFIGS,
      timeLimitMs: DEFAULT_TIME_LIMIT_MS,
      price: ANTHROPIC_PRICING,
      debug: false,
    });
  });

  it("should read the constraint as a share or a percentage, and a cost with or without its x", () => {
    expect(parseTuneArguments(["a.jsonl", "--budget", "8000", "--min-retention", "0.95"]).constraint).toEqual({
      kind: "min-retention",
      value: 0.95,
    });
    expect(parseTuneArguments(["a.jsonl", "--budget", "8000", "--min-retention", "90%"]).constraint).toEqual({
      kind: "min-retention",
      value: 0.9,
    });
    expect(parseTuneArguments(["a.jsonl", "--budget", "8000", "--max-cost", "0.4x"]).constraint).toEqual({ kind: "max-cost", value: 0.4 });
  });

  it("should read the bounds: a count, and seconds or a duration with its unit", () => {
    const bounds = (...argv: string[]) => {
      const { maxConfigs, timeLimitMs } = parseTuneArguments(["a.jsonl", "--budget", "8000", ...argv]);
      return { maxConfigs, timeLimitMs };
    };
    expect(bounds("--max-configs", "12", "--time-limit", "90")).toEqual({ maxConfigs: 12, timeLimitMs: 90_000 });
    expect(bounds("--time-limit", "2m").timeLimitMs).toBe(120_000);
    expect(bounds("--time-limit", "1.5s").timeLimitMs).toBe(1_500);
    expect(bounds("--time-limit", "250ms").timeLimitMs).toBe(250);
    expect(parseTuneArguments(["a.jsonl", "--budget", "8000", "--price", "openai"]).price).toEqual(OPENAI_PRICING);
  });

  it.each([
    [["a.jsonl"], "--budget", "give the token budget to tune for"],
    [["a.jsonl", "--budget", "24000,64000"], "--budget", '"24000,64000" is not a token count'],
    [["a.jsonl", "--budget", "0"], "--budget", '"0" is not a token count'],
    [["a.jsonl", "--budget", "8000", "--min-retention", "1.5"], "--min-retention", '"1.5" is not a share'],
    [["a.jsonl", "--budget", "8000", "--min-retention", ""], "--min-retention", '"" is not a share'],
    [["a.jsonl", "--budget", "8000", "--max-cost", "0"], "--max-cost", '"0" is not a cost'],
    [["a.jsonl", "--budget", "8000", "--max-cost", "cheap"], "--max-cost", '"cheap" is not a cost'],
    [["a.jsonl", "--budget", "8000", "--min-retention", "0.9", "--max-cost", "0.4"], "--max-cost", "not both"],
    [["a.jsonl", "--budget", "8000", "--max-configs", "0"], "--max-configs", '"0" is not a count'],
    [["a.jsonl", "--budget", "8000", "--max-configs", "2.5"], "--max-configs", '"2.5" is not a count'],
    [["a.jsonl", "--budget", "8000", "--time-limit", "soon"], "--time-limit", '"soon" is not a duration'],
    [["a.jsonl", "--budget", "8000", "--time-limit", "0s"], "--time-limit", '"0s" is not a duration'],
    [["a.jsonl", "--budget", "8000", "--time-limit", "30d"], "--time-limit", '"30d" is not a duration'],
    [["a.jsonl", "--budget", "8000", "--price", "gemini"], "--price", '"gemini" is not a price model'],
    [["a.jsonl", "--budget", "8000", "--format", "yaml"], "--format", '"yaml" is not a format'],
    [["a.jsonl", "--budget", "8000", "--json="], "--json", "give a file to write"],
    [["--budget", "8000"], "", "name at least one session file"],
    [["a.jsonl", "--budget", "8000", "--compare", "truncate"], "", "Unknown option '--compare'"],
  ])("should refuse %j with a usage error naming the option", (argv, option, message) => {
    let error: unknown;
    try {
      parseTuneArguments(argv);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).option).toBe(option);
    expect((error as UsageError).message).toContain(message);
  });

  it("should show the help without files or a budget", () => {
    expect(parseTuneArguments(["--help"]).help).toBe(true);
  });
});
