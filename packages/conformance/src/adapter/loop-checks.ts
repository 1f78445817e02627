// The loop checks: scripted conversations through an adapter's loop wrapper, where what each call stored must
// agree with what it returned (invariant 12): a call that rejects stored nothing new, one that resolves stored its turn.
import { createContextManager, MemoryMessageStore, type ContextManager, type Message } from "@ctxkit/core";
import fc from "fast-check";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeError, expectThat, preview } from "../checks/violation.js";
import type { AdapterLoop, LoopInput, ScriptedReply, ScriptedUsage } from "./adapter-subject.js";
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
];

const isCount = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;

/** Whether every figure of `usage` is a count, and the prompt's parts sum to a finite one. */
function isSoundUsage(usage: ScriptedUsage | null): boolean {
  if (usage === null) return true;
  const parts = [usage.input, usage.cacheRead ?? 0, usage.output ?? 0];
  return parts.every(isCount) && Number.isFinite((usage.input as number) + ((usage.cacheRead ?? 0) as number));
}

function describeCall(call: LoopCall, index: number): string {
  const reply = call.reply.kind === "too-long" ? "rejected as too long" : `answered with usage ${preview(call.reply.usage, 120)}`;
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
      if (call.reply.kind === "answer") {
        // An SDK that refuses the response itself fails the call before the loop sees it: then nothing may be stored.
        const mayReject = loop.sdkRefusesMalformedUsage === true && !isSoundUsage(call.reply.usage);
        expectThat(resolved || mayReject, () => `${where} rejected though the provider answered: ${describeError(failure)}`);
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
