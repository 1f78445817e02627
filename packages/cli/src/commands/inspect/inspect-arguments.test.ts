// What `ctxkit inspect` accepts, and the usage errors that name the option at fault.
import { describe, expect, it } from "vitest";
import { UsageError } from "../usage-error.js";
import { parseInspectArguments } from "./inspect-arguments.js";

function usageErrorOf(argv: string[]): UsageError {
  try {
    parseInspectArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

describe("parseInspectArguments", () => {
  it("should take a file with a preset, a budget and --html", () => {
    expect(parseInspectArguments(["session.jsonl", "--preset", "truncate", "--budget", "32k", "--html", "out.html"])).toEqual({
      help: false,
      source: "session.jsonl",
      configuration: { name: "truncate", option: "--preset" },
      budget: 32_000,
      html: "out.html",
      debug: false,
    });
  });

  it("should take a PostgreSQL or Redis session by --url and --session, with the default configuration", () => {
    expect(parseInspectArguments(["--url", "redis://127.0.0.1:6379", "--session", "abc"])).toMatchObject({
      url: "redis://127.0.0.1:6379",
      session: "abc",
      configuration: { name: "default", option: "--preset" },
    });
  });

  it.each([
    [[], "", /name a session/],
    [["a.jsonl", "b.jsonl"], "", /name one session/],
    [["a.jsonl", "--url", "postgres://h/db", "--session", "s"], "--url", /not both/],
    [["--url", "http://h/db", "--session", "s"], "--url", /postgres:\/\//],
    [["--url", "postgres://h/db"], "--session", /session id/],
    [["a.jsonl", "--session", "s"], "--session", /goes with --url/],
    [["a.jsonl", "--budget", "lots"], "--budget", /not a token count/],
    [["a.jsonl", "--preset", "truncate", "--config", "c.json"], "--config", /not both/],
    [["a.jsonl", "--html", "-"], "--html", /a file to write/],
    [["a.jsonl", "--format", "yaml"], "--format", /not a format/],
    [["a.jsonl", "--colour"], "", /Unknown option '--colour'/],
  ])("should refuse %j, naming %j", (argv, option, message) => {
    const error = usageErrorOf(argv);
    expect(error.option).toBe(option);
    expect(error.message).toMatch(message);
  });
});
