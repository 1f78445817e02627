import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import { createRepairedTestView, createTestContext, createTestView } from "../../test/strategy-context.js";
import { runPipeline } from "../pipeline/run-pipeline.js";
import { truncate } from "./truncate.js";
import { ContextConfigError } from "../errors.js";
import type { AssistantMessage, Message } from "../messages/message.js";
import { checkToolPairs } from "../units/check-tool-pairs.js";
import { ContextBudgetError } from "../errors.js";
import { memoryContext } from "../../test/memory-context.js";
import { DEFAULT_PIPELINE } from "./built-in-strategies.js";
import { shortenToFit } from "./shorten-to-fit.js";

/** An edit call whose arguments carry a long new text, as coding agents send. */
function editCall(id: string): AssistantMessage {
  const args = {
    file_path: `lib/app/module_${id}.ex`,
    new_string: `defmodule App.Module${id} do\n${"  def run, do: :ok\n".repeat(60)}end`,
  };
  return {
    role: "assistant",
    content: `Editing module ${id}. ${"Some reasoning about it. ".repeat(40)}`,
    tool_calls: [{ id, type: "function", function: { name: "Edit", arguments: JSON.stringify(args) } }],
  };
}

const result = (id: string): Message => ({
  role: "tool",
  tool_call_id: id,
  content: `Updated lib/app/module_${id}.ex with handle_${id}\n${"ok ".repeat(400)}`,
});

/** One user message, then `count` edit units: a single long turn. */
function longTurn(count: number): Message[] {
  return [
    { role: "user", content: "refactor the app" },
    ...Array.from({ length: count }, (_, index) => [editCall(`c${index}`), result(`c${index}`)]).flat(),
  ];
}

const isShortened = (view: ReturnType<typeof createTestView>, index: number) => view.entries[index]!.edit?.strategy === "shorten-to-fit";

describe("shortenToFit", () => {
  it("should list at most one identifier per budgetTokensPerIdentifier tokens of the budget in a stub (budgetTokensPerIdentifier)", async () => {
    const names = Array.from({ length: 40 }, (_, index) => `lib/app/file_${index}.ex`);
    const history: Message[] = [
      { role: "user", content: "list the files" },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "Glob", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "a", content: names.join("\n") },
      ...longTurn(1).slice(1),
    ];
    // Budgets that hold the view, so no bare pass follows the first.
    const stubOf = async (budget: number, budgetTokensPerIdentifier = 200) => {
      const strategy = shortenToFit({ maxIdentifiers: 30, budgetTokensPerIdentifier });
      const view = createTestView(history);
      // A target the first stub reaches, so no bare pass follows.
      const after = (await strategy.apply(view, createTestContext({ history, target: view.tokens - 50, budget }))).view;
      return String(after.entries[2]!.message.content);
    };
    const listed = (stub: string) => names.filter((name) => stub.includes(name)).length;
    expect(listed(await stubOf(2_000))).toBe(10);
    expect(listed(await stubOf(100_000))).toBe(30);
    expect(listed(await stubOf(2_000, 5_000))).toBe(1);
  });

  it("should shorten the current turn's older units, oldest first, and leave the latest tool unit and the latest user message whole", async () => {
    const history = longTurn(4);
    const view = createTestView(history);
    const shortened = await shortenToFit().apply(view, createTestContext({ history, target: 0, budget: 100_000 }));
    expect(shortened.applied).toBe(true);
    const after = shortened.view;
    expect([1, 2, 3, 4, 5, 6].every((index) => isShortened(after, index))).toBe(true);
    // The latest unit (7, 8) and the user message (0) are as they were.
    expect(after.entries.slice(7).map((entry) => entry.message)).toEqual(history.slice(7));
    expect(after.entries[0]!.message).toEqual(history[0]);
    expect(checkToolPairs(after.entries.map((entry) => entry.message))).toEqual([]);
  });

  it("should keep tool-call arguments valid JSON with their keys and short values, and a result's identifiers in its stub", async () => {
    const history = longTurn(2);
    const after = (await shortenToFit().apply(createTestView(history), createTestContext({ history, budget: 100_000 }))).view;
    const call = (after.entries[1]!.message as AssistantMessage).tool_calls![0]!;
    const args = JSON.parse(call.function.arguments) as Record<string, string>;
    expect(args["file_path"]).toBe("lib/app/module_c0.ex");
    expect(args["new_string"]).toMatch(/^defmodule App\.Modulec0 do[\s\S]*\[… \d+ characters cut\]$/);
    expect(args["new_string"]!.length).toBeLessThan(160);
    expect(String(after.entries[1]!.message.content).length).toBeLessThan(500);
    expect(after.entries[2]!.message.content).toBe(
      `[tool result cleared to save context: ${createTestView(history).entries[2]!.tokens} tokens; it named: lib/app/module_c0.ex, handle_c0]`,
    );
  });

  it("should stop as soon as the view is at or below the target", async () => {
    const history = longTurn(4);
    const view = createTestView(history);
    const after = (await shortenToFit().apply(view, createTestContext({ history, target: view.tokens - 1, budget: view.tokens }))).view;
    expect(isShortened(after, 1)).toBe(true);
    expect(isShortened(after, 2)).toBe(false);
  });

  it("should make its own stubs bare, then shortest, rather than leave the view over the budget", async () => {
    const history = longTurn(6);
    const context = createTestContext({ history, target: 0, budget: 100_000 });
    const once = (await shortenToFit().apply(createTestView(history), context)).view;
    const resultsOf = (view: typeof once) =>
      view.entries.filter((entry) => entry.message.role === "tool").map((entry) => String(entry.message.content));
    // A budget below what the first stubs take: the second pass drops their identifiers and cuts harder.
    const budget = once.tokens - 100;
    const tight = await shortenToFit().apply(once, createTestContext({ history, target: budget, budget }));
    expect(tight.applied).toBe(true);
    expect(tight.view.tokens).toBeLessThanOrEqual(budget);
    expect(resultsOf(tight.view)[0]).toMatch(/^\[tool result cleared to save context: \d+ tokens\]$/);
    // A budget the bare stubs do not fit: the oldest keep only their size, texts and argument values a head.
    const bare = (await shortenToFit().apply(once, createTestContext({ history, target: 0, budget: 1 }))).view;
    expect(resultsOf(bare).slice(0, -1)).toEqual(
      resultsOf(once)
        .slice(0, -1)
        .map(() => expect.stringMatching(/^\[cleared: \d+ tokens\]$/)),
    );
    const call = (bare.entries[1]!.message as AssistantMessage).tool_calls![0]!;
    expect(JSON.parse(call.function.arguments)).toEqual({ file_path: "lib/app/mo…", new_string: "defmodule …" });
    expect(bare.entries[1]!.message.content).toBe("Editing module c0. S…");
  });

  it("should change nothing a second time, over the budget too: its stubs stay as they are across compactions", async () => {
    const history = longTurn(3);
    const strategy = shortenToFit();
    for (const budget of [100_000, 1]) {
      const once = await strategy.apply(createTestView(history), createTestContext({ history, budget }));
      const twice = await strategy.apply(once.view, createTestContext({ history, budget }));
      expect(twice).toEqual({ view: once.view, applied: false });
    }
  });

  it("should reject options too small to leave anything", () => {
    expect(() => shortenToFit({ maxTextChars: 5 })).toThrow(ContextConfigError);
    expect(() => shortenToFit({ maxArgumentChars: 1.5 })).toThrow(/maxArgumentChars/);
  });
});

/** `message` with its call id made unique to `turn`. */
function renamed(message: Message, turn: number): Message {
  if (message.role === "tool") return { ...message, tool_call_id: `t${turn}` };
  if (message.role === "assistant" && message.tool_calls !== undefined)
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: `t${turn}` })) };
  return message;
}

describe("shortenToFit with truncateFollows", () => {
  const pieces = fc.oneof(
    historyArbitrary({ broken: true, maxUnits: 4 }),
    fc.integer({ min: 1, max: 6 }).map((count) => longTurn(count)),
    fc.constant<Message[]>([{ role: "user", content: "pinned note", metadata: { pinned: true } }]),
  );

  it("should leave, with the truncation after it, exactly the view it leaves without the option", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pieces, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        async (parts, budgetShare, targetShare, forced, protectFirst) => {
          const history = parts.flat();
          const view = createRepairedTestView(history);
          const budget = Math.max(1, Math.floor((view.tokens * budgetShare) / 100));
          const context = {
            ...createTestContext({ history, budget, target: Math.floor((budget * targetShare) / 100), protectFirst }),
            forced,
          };
          const plain = await runPipeline(view, [shortenToFit(), truncate()], context);
          const skipping = await runPipeline(view, [shortenToFit({ truncateFollows: true }), truncate()], context);
          expect(skipping.view.entries).toEqual(plain.view.entries);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("should leave the old units truncation drops as they were, when the newer units' stubs alone pass the budget", async () => {
    // Forty turns of one edit each: the oldest are dropped whole whatever their stubs.
    const history = Array.from({ length: 40 }, (_, turn) => longTurn(1).map((message) => renamed(message, turn))).flat();
    const view = createTestView(history);
    const latestUnit = view.entries.slice(-2).reduce((sum, entry) => sum + entry.tokens, 0);
    const context = createTestContext({ history, budget: latestUnit + 400, target: latestUnit + 100 });
    const shortened = (await shortenToFit({ truncateFollows: true }).apply(view, context)).view;
    expect(isShortened(shortened, 1)).toBe(false);
    expect(isShortened(shortened, history.length - 5)).toBe(true);
    const plain = await runPipeline(view, [shortenToFit(), truncate()], context);
    const skipping = await runPipeline(view, [shortenToFit({ truncateFollows: true }), truncate()], context);
    expect(skipping.view.entries).toEqual(plain.view.entries);
  });
});

describe("shortenToFit across compactions", () => {
  it("should make a message's stub once, and count it again only for other settings or another budget's identifiers", async () => {
    const history = longTurn(12);
    const view = createTestView(history);
    let counted = 0;
    const countMessage = (message: Message) => {
      counted += 1;
      return createTestContext().countMessage(message);
    };
    const strategy = shortenToFit({ budgetTokensPerIdentifier: 100 });
    const context = { ...createTestContext({ history, budget: 100_000 }), countMessage };
    const first = (await strategy.apply(view, context)).view;
    expect(counted).toBeGreaterThan(0);
    const countedOnce = counted;
    const again = (await strategy.apply(view, context)).view;
    expect(counted).toBe(countedOnce);
    expect(again.entries).toEqual(first.entries);
    // A smaller budget lists fewer identifiers per result stub: those stubs are made anew.
    await strategy.apply(view, { ...context, budget: 1_000 });
    expect(counted).toBeGreaterThan(countedOnce);
    expect((await shortenToFit({ budgetTokensPerIdentifier: 100 }).apply(view, { ...context, budget: 1_000 })).view.entries).toEqual(
      (await strategy.apply(view, { ...context, budget: 1_000 })).view.entries,
    );
  });
});

/** The default pipeline's shorten-to-fit options, read from it so the tests follow a change of them. */
function defaultOptions() {
  const entry = DEFAULT_PIPELINE.find((step) => typeof step !== "string" && step.name === "shorten-to-fit");
  return (entry as { options: Parameters<typeof shortenToFit>[0] }).options;
}

/** A coding agent's long turn: one user message, then `units` edits with long arguments, each answered by a long listing. */
function agentTurn(units: number): Message[] {
  const messages: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Refactor the whole app and run the tests." },
  ];
  for (let unit = 0; unit < units; unit += 1) {
    const id = `call_${unit}`;
    const args = {
      file_path: `src/module_${unit}/handler_${unit}.ts`,
      old_string: `function run${unit}() {\n${"  doWork();\n".repeat(30)}}`,
      new_string: `export function run${unit}(ctx: Context${unit}) {\n${"  doBetterWork(ctx);\n".repeat(30)}}`,
    };
    messages.push(
      {
        role: "assistant",
        content: unit % 2 === 0 ? `Now module ${unit}: ${"the handler needs the context passed through. ".repeat(6)}` : null,
        tool_calls: [{ id, type: "function", function: { name: "Edit", arguments: JSON.stringify(args) } }],
      },
      {
        role: "tool",
        tool_call_id: id,
        content: Array.from(
          { length: 120 },
          (_, line) => `src/pkg_${unit}/file_${line}.ts:${line + 1}: export const value_${unit}_${line} = compute${line}(input);`,
        ).join("\n"),
      },
    );
  }
  return messages;
}

describe("shortenToFit on a turn longer than its bare stubs fit (regression)", () => {
  // A current turn of 270 messages, the shape of a real session the default refused 23 requests of at 12k.
  const history = agentTurn(135);

  it("should shorten the oldest stubs further, down to their size alone, until the view fits, and keep every pair", async () => {
    const view = createTestView(history);
    const context = createTestContext({ history, budget: 12_000, target: 2_400 });
    const after = (await shortenToFit(defaultOptions()).apply(view, context)).view;
    expect(after.tokens).toBeLessThanOrEqual(12_000);
    expect(checkToolPairs(after.entries.map((entry) => entry.message))).toEqual([]);
    const results = after.entries.filter((entry) => entry.message.role === "tool").map((entry) => String(entry.message.content));
    // The oldest shortest, the newest stubs less short; the latest unit whole.
    expect(results[0]).toMatch(/^\[cleared: \d+ tokens\]$/);
    expect(results.at(-2)).toMatch(/^\[tool result cleared to save context: \d+ tokens\]$/);
    expect(after.entries.at(-1)!.message).toEqual(history.at(-1));
    expect(after.entries.slice(0, 2).map((entry) => entry.message)).toEqual(history.slice(0, 2));
  });

  it("should let the default serve every request of the turn at 12k, and refuse only a budget the shortest stubs cannot fit", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    const refusedAt: number[] = [];
    for (const [index, message] of history.entries()) {
      await manager.addMessage(message);
      if (message.role !== "tool") continue;
      const view = await manager.getMessagesForRequest({ tokenBudget: 12_000 }).catch((error: unknown) => {
        if (!(error instanceof ContextBudgetError)) throw error;
        refusedAt.push(index);
        return undefined;
      });
      if (view !== undefined) expect(checkToolPairs(view)).toEqual([]);
    }
    expect(refusedAt).toEqual([]);
    // 135 units of about 30 tokens each at their shortest pass 3,000 tokens.
    await expect(manager.getMessagesForRequest({ tokenBudget: 3_000 })).rejects.toThrow(ContextBudgetError);
  }, 60_000);
});
