import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { countMessageTokens } from "../tokens/count-message-tokens.js";
import { tiktokenCounter } from "../tokens/tiktoken-counter.js";
import { type TokenBound, tokenBoundOf, utf8ByteLength, withTokenBound } from "../tokens/token-bound.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { resolveTokenCounter } from "../tokens/resolve-token-counter.js";
import { createContextManager } from "./create-context-manager.js";

// A view far under its budget is served on the tiktoken counter's bound (a count never passes the text's UTF-8
// length), its messages counted only when a figure is asked for. Here every public answer of a session served
// that way is held, byte for byte, to the same session served by the same counter without its bound.

/** The same counts with no bound: every view is counted as it is built, as before the deferral. */
function withoutBound(counter: TokenCounter): TokenCounter {
  return { name: counter.name, count: (text) => counter.count(text) };
}

/** `counter`'s counts under `bound`, counting its calls. */
function countingCounter(counter: TokenCounter, bound: TokenBound): TokenCounter & { calls: number } {
  const counting = {
    name: counter.name,
    calls: 0,
    count(text: string): number {
      counting.calls += 1;
      return counter.count(text);
    },
  };
  return withTokenBound(counting, bound);
}

type Step =
  | { readonly kind: "message"; readonly message: Message }
  | { readonly kind: "request" | "usage" | "explain" | "pin" }
  | { readonly kind: "report"; readonly inputTokens: number };

interface Session {
  readonly maxTokens: number;
  readonly steps: readonly Step[];
}

const ASCII = "the view keeps each tool call with its results; truncation drops the oldest units first.\n".split("");
const CJK = "上下文管理器保留每个工具调用及其结果日本語の文章한국어".split("");
const EMOJI = ["😀", "🚀", "👍🏽", "❤️", "🇯🇵", "🧑‍💻", "\u{1f600}"];

const shortTextArbitrary = fc
  .array(
    fc.oneof(
      fc.string({ unit: fc.constantFrom(...ASCII), maxLength: 300 }),
      fc.string({ unit: fc.constantFrom(...CJK), maxLength: 120 }),
      fc.string({ unit: fc.constantFrom(...EMOJI), maxLength: 40 }),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(" "));

/** Mostly short texts, some long ones (a file read, a log): a few messages can then pass a small budget. */
const textArbitrary = fc.oneof(
  { weight: 5, arbitrary: shortTextArbitrary },
  { weight: 1, arbitrary: fc.tuple(shortTextArbitrary, fc.integer({ min: 2, max: 400 })).map(([text, times]) => text.repeat(times)) },
);

/** One turn's messages: a user message (sometimes pinned), an answer, or a tool unit with all or some of its results. */
function turnArbitrary(turn: number): fc.Arbitrary<Message[]> {
  return fc.oneof(
    fc
      .tuple(textArbitrary, fc.boolean())
      .map(([text, isPinned]): Message[] => [
        isPinned && text.length % 7 === 0 ? { role: "user", content: text, metadata: { pinned: true } } : { role: "user", content: text },
      ]),
    textArbitrary.map((text): Message[] => [{ role: "assistant", content: text }]),
    fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.array(textArbitrary, { minLength: 3, maxLength: 3 }), fc.boolean(), fc.boolean())
      .map(([calls, results, isComplete, isWrite]): Message[] => {
        const ids = Array.from({ length: calls }, (_, index) => `call_${turn}_${index}`);
        const opener: Message = {
          role: "assistant",
          content: null,
          tool_calls: ids.map((id, index) => ({
            id,
            type: "function" as const,
            // A write carries its text in its arguments; its result is a word.
            function: isWrite
              ? { name: "write_file", arguments: JSON.stringify({ path: `src/${turn}.ts`, content: results[index] }) }
              : { name: "read_file", arguments: JSON.stringify({ path: results[index]!.slice(0, 20) }) },
          })),
        };
        const answered = isComplete ? ids : ids.slice(0, -1);
        return [
          opener,
          ...answered.map((id, index): Message => ({ role: "tool", tool_call_id: id, content: isWrite ? "ok" : results[index]! })),
        ];
      }),
  );
}

const operationArbitrary: fc.Arbitrary<Step | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constant<Step>({ kind: "request" }) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "usage" }) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "explain" }) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "pin" }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((inputTokens): Step => ({ kind: "report", inputTokens })) },
);

/** A session's UTF-8 bytes: a rough size, to give some sessions a budget close to their own. */
function sessionBytes(steps: readonly Step[]): number {
  let bytes = 0;
  for (const step of steps) if (step.kind === "message") bytes += utf8ByteLength(JSON.stringify(step.message));
  return bytes;
}

const sessionArbitrary: fc.Arbitrary<Session> = fc
  .record({
    // An absolute budget from tiny to a million tokens, or one between a tenth of the session's bytes and their whole.
    budget: fc.oneof(
      fc.integer({ min: 20, max: 2_000 }),
      fc.integer({ min: 2_000, max: 40_000 }),
      fc.integer({ min: 40_000, max: 1_000_000 }),
      fc.double({ min: 0.1, max: 1, noNaN: true }).map((share) => ({ share })),
    ),
    system: fc.option(textArbitrary),
    developer: fc.option(textArbitrary),
    turns: fc.integer({ min: 0, max: 150 }),
  })
  .chain(({ budget, system, developer, turns }) =>
    fc.tuple(...Array.from({ length: turns }, (_, turn) => fc.tuple(turnArbitrary(turn), operationArbitrary))).map((parts): Session => {
      const steps: Step[] = [];
      if (system !== null) steps.push({ kind: "message", message: { role: "system", content: system } });
      if (developer !== null) steps.push({ kind: "message", message: { role: "developer", content: developer } });
      for (const [messages, operation] of parts) {
        for (const message of messages) steps.push({ kind: "message", message });
        if (operation !== undefined) steps.push(operation);
      }
      if (steps.length === 0) steps.push({ kind: "message", message: { role: "user", content: "hi" } });
      steps.push({ kind: "request" }, { kind: "request" }, { kind: "usage" }, { kind: "explain" });
      const maxTokens = typeof budget === "number" ? budget : Math.max(20, Math.round(budget.share * sessionBytes(steps)));
      return { maxTokens, steps };
    }),
  );

/** Times and ids differ from run to run whatever the counts: they are left out of the comparison. */
function stable(value: unknown): string {
  return JSON.stringify(value, (key, field) => (key === "id" || key === "at" || key === "durationMs" || key === "receiptId" ? "·" : field));
}

/** Everything a session's public calls answered and every event it emitted, in order, as text. */
async function transcript(counter: TokenCounter, session: Session): Promise<string[]> {
  const lines: string[] = [];
  const record = async (label: string, call: () => Promise<unknown>) => {
    try {
      lines.push(`${label} ${stable(await call())}`);
    } catch (error) {
      lines.push(`${label} threw ${(error as Error).name}: ${(error as Error).message}`);
    }
  };
  const manager = await createContextManager({
    store: new MemoryMessageStore(),
    tokenizer: counter,
    maxTokens: session.maxTokens,
    onEvent: (event, payload) => void lines.push(`event ${event} ${stable(payload)}`),
  });
  let added = 0;
  for (const step of session.steps) {
    if (step.kind === "message") {
      await manager.addMessage(step.message);
      added += 1;
    } else if (step.kind === "request") await record("view", () => manager.getMessagesForRequest());
    else if (step.kind === "usage") await record("usage", () => manager.usage());
    else if (step.kind === "explain") await record("explain", () => manager.explainView());
    else if (step.kind === "pin") await record("pin", () => manager.pinMessage(Math.floor(added / 2)));
    else if ("inputTokens" in step) {
      const { inputTokens } = step;
      await record("report", () => manager.reportUsage({ inputTokens }));
    }
  }
  const compactions = await manager.listCompactions();
  lines.push(`compactions ${stable(compactions)}`);
  for (const summary of compactions) await record("receipt", () => manager.getCompaction(summary.id));
  return lines;
}

const exact = tiktokenCounter();
const unbounded = withoutBound(exact);
const SEEDS = [11, 23, 47];

describe("counts deferred under the tiktoken counter's bound", () => {
  it("should register the UTF-8 length as the bound of the built-in tiktoken counters only", () => {
    expect(tokenBoundOf(resolveTokenCounter("o200k_base"))).toBe(utf8ByteLength);
    expect(tokenBoundOf(resolveTokenCounter("cl100k_base"))).toBe(utf8ByteLength);
    expect(tokenBoundOf(resolveTokenCounter(exact))).toBe(utf8ByteLength);
    expect(tokenBoundOf(resolveTokenCounter("estimate"))).toBeUndefined();
    expect(tokenBoundOf(resolveTokenCounter(unbounded))).toBeUndefined();
  });

  it("should measure UTF-8 as the encoder writes it, a lone surrogate as U+FFFD", () => {
    const encoder = new TextEncoder();
    for (const text of ["", "plain", "é", "上下文", "😀👍🏽", "\ud800", "a\udc00b", "\ud83d\ude00\ud83d"]) {
      expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
    }
  });

  it.each(SEEDS)("should give every view, figure, explanation, receipt and event the exact counts give (seed %i)", async (seed) => {
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async (session) => {
        expect(await transcript(exact, session)).toEqual(await transcript(unbounded, session));
      }),
      { seed, numRuns: 15 },
    );
  });

  it("should be caught by the same comparison when a bound is below a count", async () => {
    // No tokens at all for a text: a view over its threshold looks far under it wherever its messages' string
    // contents are short beside their count (a write's text is in its call's arguments), which the view tail looks at first.
    const broken = withTokenBound(withoutBound(exact), () => 0);
    // Budgets about the session's count, where its views pass their threshold or the budget itself.
    const nearItsCount = sessionArbitrary.chain((session) => {
      let tokens = 0;
      for (const step of session.steps) if (step.kind === "message") tokens += countMessageTokens(step.message, exact);
      return fc
        .double({ min: 0.5, max: 1.4, noNaN: true })
        .map((share) => ({ ...session, maxTokens: Math.max(20, Math.round(share * tokens)) }));
    });
    for (const seed of SEEDS) {
      const result = await fc.check(
        fc.asyncProperty(nearItsCount, async (session) => {
          expect(await transcript(broken, session)).toEqual(await transcript(unbounded, session));
        }),
        { seed, numRuns: 60, endOnFailure: true },
      );
      expect(result.failed).toBe(true);
    }
  });

  it("should serve a short session's first view without counting, and count at the first figure asked for", async () => {
    const counter = countingCounter(exact, utf8ByteLength);
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: counter, maxTokens: 128_000 });
    await manager.addMessage({ role: "system", content: "You are a careful coding agent." });
    await manager.addMessage({ role: "user", content: "Open src/index.ts and say what it exports. 上下文 😀" });
    const view = await manager.getMessagesForRequest();
    expect(view).toHaveLength(2);
    expect(counter.calls).toBe(0);
    const usage = await manager.usage();
    expect(counter.calls).toBe(2);
    expect(usage?.tokens).toBe(view.reduce((total, message) => total + countMessageTokens(message, exact), 0));
    // Counted once: asked again, the figure is the same and nothing is counted again.
    expect(await manager.usage()).toEqual(usage);
    expect(counter.calls).toBe(2);
  });

  it("should count a view at once when its bound is not far under the budget", async () => {
    const counter = countingCounter(exact, utf8ByteLength);
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: counter, maxTokens: 100 });
    // 400 bytes: under the budget by count (about 50 tokens), over half the threshold by bound.
    await manager.addMessage({ role: "user", content: "word ".repeat(80) });
    await manager.getMessagesForRequest();
    expect(counter.calls).toBe(1);
  });
});
