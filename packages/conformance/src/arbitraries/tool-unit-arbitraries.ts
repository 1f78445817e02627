// Tool units: an assistant message with one or several parallel calls, and the results that answer them.
import type { AssistantMessage, ContentPart, ToolMessage } from "@ctxkit/core";
import fc from "fast-check";
import { reasoningContentArbitrary } from "./message-arbitraries.js";
import { messageTextArbitrary } from "./text-arbitrary.js";

export interface ToolOutputOptions {
  /** Let a small fraction of outputs be huge (200 KB or more). Default true. */
  readonly hugeOutputs?: boolean;
}

/** The smallest output the kit calls huge: bigger than any sane trim limit. */
export const HUGE_OUTPUT_MINIMUM = 200_000;

// Lines a real tool prints, repeated to size; mostly ASCII because huge CJK runs cost seconds to count.
const OUTPUT_LINES = [
  "2024-05-01T12:00:00Z INFO request handled in 12ms path=/api/items status=200",
  "    at Object.<anonymous> (/app/src/server.ts:42:13)",
  '{"id": 17, "name": "widget", "tags": ["a", "b"], "price": 9.99}',
  "diff --git a/src/index.ts b/src/index.ts",
  "ERROR 构建失败：找不到模块 😞",
] as const;

/** Repeats `line` until the text is at least `length` UTF-16 units long, never splitting a character. */
function repeatToLength(line: string, length: number): string {
  const withBreak = `${line}\n`;
  return withBreak.repeat(Math.ceil(length / withBreak.length));
}

function sizedOutputArbitrary(minimum: number, maximum: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...OUTPUT_LINES), fc.integer({ min: minimum, max: maximum }))
    .map(([line, length]) => repeatToLength(line, length));
}

/**
 * Tool output from empty to huge. Cross-shrinking lets a failing huge output shrink to a tiny one when
 * size does not matter to the failure, so counterexamples stay small enough to paste.
 */
export function toolOutputArbitrary(options: ToolOutputOptions = {}): fc.Arbitrary<string | ContentPart[]> {
  const text = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom("", "ok", "0", "\n"), weight: 20 },
    { arbitrary: messageTextArbitrary(), weight: 40 },
    { arbitrary: sizedOutputArbitrary(1_000, 8_000), weight: 12 },
    { arbitrary: sizedOutputArbitrary(20_000, 60_000), weight: 3 },
    ...(options.hugeOutputs === false ? [] : [{ arbitrary: sizedOutputArbitrary(HUGE_OUTPUT_MINIMUM, 260_000), weight: 1 }]),
  );
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: text, weight: 6 },
    { arbitrary: text.map((value): ContentPart[] => [{ type: "text", text: value }]), weight: 1 },
  );
}

/**
 * A tool-call id. Some come from a small shared pool so that a later turn reuses an id, as real
 * sessions do; the rest look like provider ids. None starts with `orphan_` (see the broken arbitraries).
 */
export function toolCallIdArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom("call_1", "call_2", "call_3"),
    fc.integer({ min: 0, max: 0xffffff }).map((value) => `toolu_${value.toString(16).padStart(6, "0")}`),
  );
}

export interface GeneratedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly output: string | ContentPart[];
}

/** One call most of the time, up to four parallel calls with distinct ids. */
export function toolCallsArbitrary(options: ToolOutputOptions = {}): fc.Arbitrary<GeneratedCall[]> {
  const call = fc.record({
    id: toolCallIdArbitrary(),
    name: fc.constantFrom("read_file", "bash", "grep", "web_fetch"),
    arguments: fc.oneof(
      { withCrossShrink: true },
      fc.constant("{}"),
      messageTextArbitrary({ maxFragments: 4 }).map((command) => JSON.stringify({ command })),
    ),
    output: toolOutputArbitrary(options),
  });
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.uniqueArray(call, { minLength: 1, maxLength: 1, selector: (generated) => generated.id }), weight: 3 },
    { arbitrary: fc.uniqueArray(call, { minLength: 2, maxLength: 4, selector: (generated) => generated.id }), weight: 2 },
  );
}

/** Assistants that call tools often say nothing (`null`), or only a blank line; reasoning models think first. */
const toolCallingContentArbitrary: fc.Arbitrary<string | ContentPart[] | null> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.constant("\n\n"), weight: 1 },
  { arbitrary: messageTextArbitrary({ maxFragments: 4 }), weight: 2 },
  { arbitrary: reasoningContentArbitrary(), weight: 1 },
);

export function toCallMessage(calls: readonly GeneratedCall[], content: string | ContentPart[] | null): AssistantMessage {
  return {
    role: "assistant",
    content,
    tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
  };
}

export function toResultMessage(call: GeneratedCall): ToolMessage {
  return { role: "tool", tool_call_id: call.id, content: call.output };
}

/** The calls and the assistant text that goes with them, for building valid or broken units. */
export function callMessageArbitrary(
  options: ToolOutputOptions = {},
): fc.Arbitrary<{ calls: GeneratedCall[]; content: string | ContentPart[] | null }> {
  return fc.record({ calls: toolCallsArbitrary(options), content: toolCallingContentArbitrary });
}

/** A valid unit: the call message, then every result, in call order or in completion order. */
export function toolUnitArbitrary(options: ToolOutputOptions = {}): fc.Arbitrary<(AssistantMessage | ToolMessage)[]> {
  return callMessageArbitrary(options).chain(({ calls, content }) =>
    fc
      .shuffledSubarray(calls, { minLength: calls.length, maxLength: calls.length })
      .map((answered) => [toCallMessage(calls, content), ...answered.map(toResultMessage)]),
  );
}
