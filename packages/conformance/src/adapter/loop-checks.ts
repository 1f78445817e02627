// The loop checks: scripted conversations through an adapter's loop wrapper, where what each call stored must
// agree with what it returned (invariant 12): a call that rejects stored nothing new, one that resolves stored its turn.
import { createContextManager, MemoryMessageStore, type ContextManager, type Message } from "@ctxkit/core";
import fc from "fast-check";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeError, expectThat, preview } from "../checks/violation.js";
import type { AdapterLoop, CountedReply, LoopInput, ScriptedReply, ScriptedUsage } from "./adapter-subject.js";
import { canonicalHistory } from "./canonical-history.js";

/** One call of a scripted conversation: the user's text, how it is given, and how the provider answers. */
export interface LoopCall {
  readonly text: string;
  readonly input: LoopInput;
  readonly reply: ScriptedReply;
}

export type LoopScript = readonly LoopCall[];

export interface LoopCheck {
  readonly name: string;
  readonly description: string;
  /** Why this check cannot run against `loop`; undefined when it can. */
  readonly skipReason: (loop: AdapterLoop) => string | undefined;
  readonly arbitrary: (loop: AdapterLoop) => fc.Arbitrary<LoopScript>;
  /** Fixed scripts run first, so each flaw shows on the first run. */
  readonly examples: (loop: AdapterLoop) => readonly LoopScript[];
  /** At most this many generated scripts, whatever the runs asked for: for a check whose scripts are long. */
  readonly maxRuns?: number;
}

const VALID_USAGE: ScriptedUsage = { input: 120, output: 8 };

const answer = (text: string, usage: ScriptedUsage | null = VALID_USAGE): ScriptedReply => ({ kind: "answer", text, usage });
const TOO_LONG: ScriptedReply = { kind: "too-long" };

/** Usage a provider may send: mostly malformed (negative, NaN, missing, Infinity, a sum that overflows), some sound. */
function usageArbitrary(loop: AdapterLoop): fc.Arbitrary<ScriptedUsage | null> {
  const count = fc.nat({ max: 200_000 });
  const nonJson = loop.carriesNonJsonNumbers === false ? [] : [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  const badFigure = fc.oneof(fc.integer({ min: -1_000_000, max: -1 }), fc.constantFrom<unknown>("12", ...nonJson));
  return fc.oneof(
    count.map((input): ScriptedUsage => ({ input, output: 8 })),
    badFigure.map((input): ScriptedUsage => ({ input, output: 8 })),
    fc.tuple(count, badFigure).map(([input, cacheRead]): ScriptedUsage => ({ input, cacheRead, output: 8 })),
    count.map((input): ScriptedUsage => ({ input, output: -3 })),
    fc.constant<ScriptedUsage>({ output: 8 }),
    fc.constant<ScriptedUsage>({ input: Number.MAX_VALUE, cacheRead: Number.MAX_VALUE, output: 1 }),
    fc.constant(null),
  );
}

const textArbitrary = fc.stringMatching(/^[A-Za-z][A-Za-z ?]{0,30}$/);

function callArbitrary(inputs: fc.Arbitrary<LoopInput>, reply: fc.Arbitrary<ScriptedReply>): fc.Arbitrary<LoopCall> {
  return fc.record({ text: textArbitrary, input: inputs, reply });
}

const malformedExamples = (loop: AdapterLoop): LoopScript[] => {
  const input = loop.inputs[0]!;
  const nonJson = loop.carriesNonJsonNumbers === false ? [] : [{ input: Number.NaN, output: 2 }];
  const usages: ScriptedUsage[] = [
    { input: -5, output: 2 },
    ...nonJson,
    { output: 2 },
    { input: Number.MAX_VALUE, cacheRead: Number.MAX_VALUE, output: 1 },
  ];
  return [usages.map((usage, index) => ({ text: `Question ${index + 1}?`, input, reply: answer(`Answer ${index + 1}.`, usage) }))];
};

/**
 * The over-counting provider's window, in its own tokens, far below the manager's budget (16,384): the minimal
 * view (the latest user message, at most ~200 tokens) fits it even at 2.0×, while the whole session (~30 calls of
 * 300–700 characters, at least ~2,000 tokens) passes it even at 1.2×, so the views the manager builds unprompted
 * are rejected and only the smaller ones it gives after a rejection fit.
 */
const COUNTED_WINDOW = 1_536;
const SESSION_CALLS = 30;
const RESULT = "The build step rewrote the route table, cleared the cache of stale entries, and left the lock file as it was; ";

/** A user message the size of a tool result: `length` characters of the step's output. */
const resultText = (index: number, length: number) =>
  `Step ${index + 1} output: ${RESULT.repeat(Math.ceil(length / RESULT.length))}`.slice(0, length);

function countedSession(loop: AdapterLoop, ratio: number, lengths: readonly number[]): LoopScript {
  const reply: CountedReply = { kind: "counted", text: "Noted.", ratio, window: COUNTED_WINDOW };
  return lengths.map((length, index) => ({ text: resultText(index, length), input: loop.inputs[0]!, reply }));
}

export const LOOP_CHECKS: readonly LoopCheck[] = [
  {
    name: "loop-usage",
    description:
      "A provider's malformed usage (negative, NaN, missing, Infinity, a sum that overflows) never fails an answered call: each call resolves and stores exactly its turn.",
    skipReason: () => undefined,
    arbitrary: (loop) =>
      fc.array(
        callArbitrary(
          fc.constant(loop.inputs[0]!),
          usageArbitrary(loop).map((usage) => answer("Answered.", usage)),
        ),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    examples: malformedExamples,
  },
  {
    name: "loop-too-long",
    description:
      "With a provider that rejects every request of a call as too long, the call rejects and stores nothing new; the calls around it store their turns.",
    skipReason: () => undefined,
    arbitrary: (loop) =>
      fc.array(callArbitrary(fc.constant(loop.inputs[0]!), fc.oneof(fc.constant(TOO_LONG), fc.constant(answer("Answered.")))), {
        minLength: 1,
        maxLength: 4,
      }),
    examples: (loop) => [
      [
        { text: "First?", input: loop.inputs[0]!, reply: answer("First.") },
        { text: "Second?", input: loop.inputs[0]!, reply: TOO_LONG },
        { text: "Second?", input: loop.inputs[0]!, reply: answer("Second.") },
      ],
    ],
  },
  {
    name: "loop-input-switch",
    description:
      "A caller who switches between sending only the new messages and the whole conversation gets each turn stored once, whatever the order of switches.",
    skipReason: (loop) =>
      loop.inputs.includes("new") && loop.inputs.includes("whole")
        ? undefined
        : `the loop takes only ${loop.inputs.join(" and ")} input, so a caller cannot switch`,
    arbitrary: () =>
      fc.array(callArbitrary(fc.constantFrom<LoopInput>("new", "whole"), fc.constant(answer("Answered."))), {
        minLength: 2,
        maxLength: 5,
      }),
    examples: () => [
      (["new", "new", "whole", "new", "whole", "whole"] as const).map((input, index) => ({
        text: `Question ${index + 1}?`,
        input,
        reply: answer(`Answer ${index + 1}.`),
      })),
    ],
  },
  {
    name: "loop-over-counting",
    description:
      "With a provider that counts 1.2–2.0× the manager's tokens in a window that holds the minimal view but not the whole session, and rejects a longer request as too long, no call of a ~30-call session dies: each resolves and stores exactly its turn.",
    skipReason: (loop) =>
      loop.repliesPerRequest === true
        ? undefined
        : "the loop's scripted provider does not answer per request: set `repliesPerRequest` and answer each request as `replyTo(reply, request)` says",
    arbitrary: (loop) =>
      fc
        .record({
          ratio: fc.integer({ min: 12, max: 20 }).map((tenths) => tenths / 10),
          lengths: fc.array(fc.integer({ min: 300, max: 700 }), { minLength: SESSION_CALLS - 4, maxLength: SESSION_CALLS + 4 }),
        })
        .map(({ ratio, lengths }) => countedSession(loop, ratio, lengths)),
    examples: (loop) => [
      countedSession(
        loop,
        2,
        Array.from({ length: SESSION_CALLS }, (_, index) => 300 + ((index * 97) % 400)),
      ),
    ],
    // Each script is a long session; a few of them, at factors across the range, are enough.
    maxRuns: 3,
  },
];

const isCount = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;

/** Whether every figure of `usage` is a count, and the prompt's parts sum to a finite one. */
function isSoundUsage(usage: ScriptedUsage | null): boolean {
  if (usage === null) return true;
  const parts = [usage.input, usage.cacheRead ?? 0, usage.output ?? 0];
  return parts.every(isCount) && Number.isFinite((usage.input as number) + ((usage.cacheRead ?? 0) as number));
}

function describeReply(reply: ScriptedReply): string {
  if (reply.kind === "too-long") return "rejected as too long";
  if (reply.kind === "counted")
    return `counted at ${reply.ratio}× the manager's tokens in a window of ${reply.window}, rejected as too long past it`;
  return `answered with usage ${preview(reply.usage, 120)}`;
}

function describeCall(call: LoopCall, index: number): string {
  const reply = describeReply(call.reply);
  return `call ${index + 1} (${call.input} input, ${reply})`;
}

function render(history: readonly Message[]): string {
  return preview(canonicalHistory(history).conversation, 500);
}

/**
 * Plays `script` through `loop` over a fresh manager. After each call the stored history must be the
 * conversation as the caller knows it: every answered turn once, nothing of a rejected call.
 */
export async function runLoopScript(loop: AdapterLoop, script: LoopScript): Promise<void> {
  const manager: ContextManager & { close?: () => Promise<void> } = await createContextManager({
    store: new MemoryMessageStore(),
    tokenizer: "estimate",
    maxTokens: 16_384,
  });
  const conversation: Message[] = [];
  try {
    for (const [index, call] of script.entries()) {
      const user: Message = { role: "user", content: call.text };
      const input = call.input === "whole" ? [...conversation, user] : [user];
      let failure: unknown;
      let resolved = false;
      try {
        await loop.call(manager, structuredClone(input), call.reply);
        resolved = true;
      } catch (error) {
        failure = error;
      }
      const stored = await manager.getMessages();
      const where = describeCall(call, index);
      if (call.reply.kind !== "too-long") {
        // An SDK that refuses the response itself fails the call before the loop sees it: then nothing may be stored.
        // A counted reply's usage is sound, and its window holds the minimal view: such a call never may reject.
        const mayReject = call.reply.kind === "answer" && loop.sdkRefusesMalformedUsage === true && !isSoundUsage(call.reply.usage);
        const though = call.reply.kind === "counted" ? "the provider's window holds the minimal view" : "the provider answered";
        expectThat(resolved || mayReject, () => `${where} rejected though ${though}: ${describeError(failure)}`);
        if (resolved) conversation.push(user, { role: "assistant", content: call.reply.text });
      } else expectThat(!resolved, () => `${where} resolved though the provider rejected every request`);
      const expected = canonicalHistory(conversation);
      expectThat(
        isDeepEqual(canonicalHistory(stored), expected),
        () =>
          `${where} ${resolved ? "resolved" : "rejected"}, but the history stored does not agree:\nexpected ${render(conversation)}\nstored   ${render(stored)}`,
      );
    }
  } finally {
    await manager.close?.();
  }
}
