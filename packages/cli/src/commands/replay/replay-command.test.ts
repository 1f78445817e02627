import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSimpleContext } from "@ctxkit/context-simple";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli.js";
import { canonicalJsonl } from "../../formats/canonical-jsonl.js";
import { factsUsedByCalls } from "../../replay/extract-facts.js";
import { FULL_HISTORY, managerSystem } from "../../replay/manager-system.js";
import { ANTHROPIC_PRICING } from "../../replay/prompt-cache-pricing.js";
import { replayCost } from "../../replay/replay-cost.js";
import { MessageFacts } from "../../replay/view-judge.js";
import { figuresOf, type ReplayFigures } from "./replay-results.js";

const ledger = new URL("./__fixtures__/ledger-session.jsonl", import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), "ctxkit-replay-command-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, text: () => chunks.join(""), write: (chunk: string) => void chunks.push(chunk), isTTY };
}

async function run(argv: string[], options: { tty?: boolean; env?: Record<string, string>; signal?: AbortSignal } = {}) {
  const stdout = stream(options.tty ?? false);
  const stderr = stream(options.tty ?? false);
  const code = await main(argv, {
    stdout,
    stderr,
    env: options.env ?? {},
    cwd: folder,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text(), stderrChunks: stderr.chunks };
}

const messages = canonicalJsonl.read({ file: ledger, text: readFileSync(ledger, "utf8") }).messages;
const input = () => ({ file: ledger, messages, factsByCall: factsUsedByCalls(messages), facts: new MessageFacts() });

describe("ctxkit replay's figures", () => {
  it("should be the replay library's, for the system the cost benchmark runs as ctxkit default", async () => {
    const { code, stdout } = await run(["replay", ledger, "--budget", "3000,6000", "--json", "-"]);
    expect(code).toBe(0);
    const results = JSON.parse(stdout).results as ReplayFigures[];
    // The cost benchmark's "ctxkit default": createSimpleContext() through managerSystem, priced and judged alike.
    const bench = managerSystem((onEvent) => createSimpleContext({ onEvent }));
    for (const budget of [3000, 6000]) {
      const own = await replayCost(bench, input(), budget, { priceModels: [ANTHROPIC_PRICING] });
      const reference = await replayCost(FULL_HISTORY, input(), budget, { priceModels: [ANTHROPIC_PRICING] });
      const expected = figuresOf("default", ledger, budget, ANTHROPIC_PRICING, {
        view: own.view,
        cost: own.cost,
        reference: reference.cost,
      });
      expect(results.find((row) => row.budget === budget)).toEqual(expected);
      expect(expected.cost).toBe(own.cost.billed["Anthropic"]! / reference.cost.billed["Anthropic"]!);
    }
    expect(results.find((row) => row.budget === 3000)!.cost).toBeLessThan(1);
  });

  it("should give the full history 1.00x, 100% retention and no compaction", async () => {
    const reference = await replayCost(FULL_HISTORY, input(), 3000, { priceModels: [ANTHROPIC_PRICING] });
    const figures = figuresOf("full history", ledger, 3000, ANTHROPIC_PRICING, { ...reference, reference: reference.cost });
    expect(figures).toMatchObject({ cost: 1, retention: 1, compactions: 0, refusals: 0, pairFaults: 0 });
    expect(figures.facts).toBeGreaterThan(0);
    expect(figures.cacheReadShare).toBeGreaterThan(0.5);
    // A budget no view reaches: the default never compacts, and its views are the full history's.
    const { stdout } = await run(["replay", ledger, "--budget", "1000000", "--json", "-"]);
    expect(JSON.parse(stdout).results[0]).toMatchObject({ cost: 1, retention: 1, compactions: 0, overBudget: 0 });
  });
});

describe("ctxkit replay on a terminal", () => {
  it("should show progress on stderr (files, messages, elapsed) and a bold header on stdout", async () => {
    const { code, stdout, stderrChunks } = await run(["replay", ledger, "--budget", "3000"], { tty: true });
    expect(code).toBe(0);
    expect(stderrChunks[0]).toMatch(/^\r\u001b\[2Kreplay: file 1\/1 · \d+\/68 messages · \d+s$/);
    expect(stdout.startsWith("\u001b[1mconfiguration")).toBe(true);
  });

  it("should use no colour with NO_COLOR", async () => {
    const { stdout } = await run(["replay", ledger, "--budget", "3000"], { tty: true, env: { NO_COLOR: "1" } });
    expect(stdout).not.toContain("\u001b[");
  });

  it("should stop on Ctrl-C between messages, write nothing and exit 130", async () => {
    const controller = new AbortController();
    const target = join(folder, "interrupted.json");
    const stdout = stream(false);
    // Interrupted as soon as the replay reports progress, so it stops in the middle of the session.
    const stderr = { chunks: [] as string[], isTTY: true, write: (chunk: string) => void (stderr.chunks.push(chunk), controller.abort()) };
    const code = await main(["replay", ledger, "--json", target], { stdout, stderr, env: {}, cwd: folder, signal: controller.signal });
    expect(code).toBe(130);
    expect(stderr.chunks.join("")).toContain("interrupted; nothing was written");
    expect(stdout.text()).toBe("");
    expect(existsSync(target)).toBe(false);
  });
});
