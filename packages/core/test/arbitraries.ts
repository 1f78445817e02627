// Test-only fast-check arbitraries for realistic histories: the shapes real agent sessions have,
// including the anomalies recorded in shared/data/transcripts (reused ids, reordered parallel results).
import fc from "fast-check";
import type { AssistantMessage, ContentPart, Message, ToolMessage } from "../src/messages/message.js";

export interface HistoryArbitraryOptions {
  /** Also produce already-broken histories: dangling calls, orphan, non-adjacent and duplicate results. */
  readonly broken?: boolean;
  /** Most segments (a turn, a tool unit, a broken fragment) in one history. Default 12. */
  readonly maxUnits?: number;
  /** Let some tool outputs reach 20 KB or more. Off by default so properties stay fast. */
  readonly hugeOutputs?: boolean;
}

const HUGE_OUTPUT_MINIMUM = 20_000;

const textFragments = [
  "Hello",
  "the build failed",
  "const x = 1;",
  "你好，世界",
  "日本語のテキストです",
  "한국어 문장",
  "ＡＢＣ１２３",
  "😀",
  "👩‍💻",
  "🇯🇵",
  "👍🏽",
  "e\u0301",
  "n\u0303a\u0308",
  "Z\u0351\u0360\u0324",
  "\n",
  "\r\n",
  "\n\n",
  "\t",
  " ",
] as const;

/** Ordinary text mixed with CJK, emoji (surrogate pairs, ZWJ sequences), combining marks and newlines. */
export function messageTextArbitrary(): fc.Arbitrary<string> {
  const fragment = fc.oneof(
    { arbitrary: fc.constantFrom(...textFragments), weight: 3 },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 2 },
  );
  return fc.array(fragment, { maxLength: 12 }).map((fragments) => fragments.join(""));
}

/**
 * A tool-call id. A few ids come from a small shared pool so that a later turn sometimes reuses an id,
 * as real sessions do; the rest look like provider ids.
 */
export function toolCallIdArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom("call_1", "call_2", "call_3", "call_4"),
    fc.integer({ min: 0, max: 0xffffff }).map((value) => `toolu_${value.toString(16).padStart(6, "0")}`),
  );
}

/** Repeats `text` until it is at least `length` UTF-16 units long, never splitting a character. */
function repeatToLength(text: string, length: number): string {
  const line = text.length > 0 ? `${text}\n` : "line of output\n";
  return line.repeat(Math.ceil(length / line.length));
}

/** Tool output from empty to large; with `hugeOutputs`, some reach 20 KB or more. */
export function toolOutputArbitrary(options: { hugeOutputs?: boolean } = {}): fc.Arbitrary<string | ContentPart[]> {
  const sized = (minimum: number, maximum: number): fc.Arbitrary<string> =>
    fc.tuple(messageTextArbitrary(), fc.integer({ min: minimum, max: maximum })).map(([text, length]) => repeatToLength(text, length));
  const text = fc.oneof(
    { arbitrary: fc.constantFrom("", "ok", "0", "\n"), weight: 2 },
    { arbitrary: messageTextArbitrary(), weight: 4 },
    { arbitrary: sized(200, 2_000), weight: 2 },
    ...(options.hugeOutputs === true ? [{ arbitrary: sized(HUGE_OUTPUT_MINIMUM, 60_000), weight: 1 }] : []),
  );
  return fc.oneof(
    { arbitrary: text, weight: 5 },
    { arbitrary: text.map((value): ContentPart[] => [{ type: "text", text: value }]), weight: 1 },
  );
}

const contentArbitrary: fc.Arbitrary<string | ContentPart[]> = fc.oneof(
  { arbitrary: messageTextArbitrary(), weight: 6 },
  { arbitrary: messageTextArbitrary().map((text): ContentPart[] => [{ type: "text", text }]), weight: 1 },
  {
    arbitrary: messageTextArbitrary().map((text): ContentPart[] => [
      { type: "text", text },
      { type: "image_url", image_url: { url: "https://example.com/screenshot.png" } },
    ]),
    weight: 1,
  },
);

const isPinnedArbitrary = fc.oneof({ arbitrary: fc.constant(false), weight: 6 }, { arbitrary: fc.constant(true), weight: 1 });

function withPinned<T extends Message>(message: T, isPinned: boolean): T {
  return isPinned ? { ...message, metadata: { pinned: true } } : message;
}

const instructionArbitrary: fc.Arbitrary<Message> = fc
  .tuple(fc.constantFrom("system" as const, "developer" as const), contentArbitrary, isPinnedArbitrary)
  .map(([role, content, isPinned]) => withPinned({ role, content }, isPinned));

const userArbitrary: fc.Arbitrary<Message> = fc
  .tuple(contentArbitrary, isPinnedArbitrary)
  .map(([content, isPinned]) => withPinned({ role: "user", content }, isPinned));

const assistantTextArbitrary: fc.Arbitrary<Message> = fc
  .tuple(contentArbitrary, isPinnedArbitrary)
  .map(([content, isPinned]) => withPinned({ role: "assistant", content }, isPinned));

interface GeneratedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly output: string | ContentPart[];
}

function callsArbitrary(options: HistoryArbitraryOptions): fc.Arbitrary<GeneratedCall[]> {
  const call = fc.record({
    id: toolCallIdArbitrary(),
    name: fc.constantFrom("read_file", "bash", "grep", "web_fetch", "think"),
    arguments: fc.oneof(
      fc.constant("{}"),
      messageTextArbitrary().map((command) => JSON.stringify({ command })),
    ),
    output: toolOutputArbitrary(options.hugeOutputs === true ? { hugeOutputs: true } : {}),
  });
  return fc.uniqueArray(call, { minLength: 1, maxLength: 4, selector: (generated) => generated.id });
}

/** Real assistants that call tools often say nothing (`null`), or only "\n\n". */
const toolCallingContentArbitrary: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.constant("\n\n"), weight: 1 },
  { arbitrary: messageTextArbitrary(), weight: 2 },
);

function toAssistant(calls: readonly GeneratedCall[], content: string | null): AssistantMessage {
  return {
    role: "assistant",
    content,
    tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
  };
}

function toResult(call: GeneratedCall): ToolMessage {
  return { role: "tool", tool_call_id: call.id, content: call.output };
}

/** A valid unit: the call message, then every result, in call order or in completion order. */
function toolUnitArbitrary(options: HistoryArbitraryOptions): fc.Arbitrary<Message[]> {
  return callsArbitrary(options).chain((calls) =>
    fc
      .tuple(fc.shuffledSubarray(calls, { minLength: calls.length }), toolCallingContentArbitrary)
      .map(([answered, content]) => [toAssistant(calls, content), ...answered.map(toResult)]),
  );
}

/** A call message where at least one call never got a result (a crash, an interruption). */
function danglingCallArbitrary(options: HistoryArbitraryOptions): fc.Arbitrary<Message[]> {
  return callsArbitrary(options).chain((calls) =>
    fc
      .tuple(fc.shuffledSubarray(calls, { maxLength: calls.length - 1 }), toolCallingContentArbitrary)
      .map(([answered, content]) => [toAssistant(calls, content), ...answered.map(toResult)]),
  );
}

/** A result whose id no call uses: the `orphan_` prefix never comes out of `toolCallIdArbitrary`. */
const orphanResultArbitrary: fc.Arbitrary<Message[]> = fc
  .tuple(fc.nat({ max: 999 }), toolOutputArbitrary())
  .map(([suffix, content]): Message[] => [{ role: "tool", tool_call_id: `orphan_${suffix}`, content }]);

/** A user message slipped between a call and its result. */
function nonAdjacentResultArbitrary(options: HistoryArbitraryOptions): fc.Arbitrary<Message[]> {
  return fc
    .tuple(callsArbitrary(options), toolCallingContentArbitrary, userArbitrary)
    .map(([calls, content, user]) => [toAssistant(calls, content), user, ...calls.map(toResult)]);
}

/** A complete unit, then one of its results again. */
function duplicateResultArbitrary(options: HistoryArbitraryOptions): fc.Arbitrary<Message[]> {
  return fc
    .tuple(callsArbitrary(options), toolCallingContentArbitrary, fc.nat())
    .map(([calls, content, pick]) => [toAssistant(calls, content), ...calls.map(toResult), toResult(calls[pick % calls.length]!)]);
}

function segmentArbitrary(options: HistoryArbitraryOptions): fc.Arbitrary<Message[]> {
  const single = (message: fc.Arbitrary<Message>): fc.Arbitrary<Message[]> => message.map((value) => [value]);
  const valid = [
    { arbitrary: single(userArbitrary), weight: 4 },
    { arbitrary: single(assistantTextArbitrary), weight: 3 },
    { arbitrary: toolUnitArbitrary(options), weight: 5 },
    { arbitrary: single(instructionArbitrary), weight: 1 },
  ];
  if (options.broken !== true) return fc.oneof(...valid);
  return fc.oneof(
    ...valid,
    { arbitrary: danglingCallArbitrary(options), weight: 1 },
    { arbitrary: orphanResultArbitrary, weight: 1 },
    { arbitrary: nonAdjacentResultArbitrary(options), weight: 1 },
    { arbitrary: duplicateResultArbitrary(options), weight: 1 },
  );
}

/**
 * A history of valid messages (each passes `parseMessage`; none is frozen, so tests can detect
 * mutation). Instructions usually lead; ids are unique within a message but may recur in a later turn.
 * Without `broken`, the history has no tool-pair violation.
 */
export function historyArbitrary(options: HistoryArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  return fc
    .tuple(fc.array(instructionArbitrary, { maxLength: 2 }), fc.array(segmentArbitrary(options), { maxLength: options.maxUnits ?? 12 }))
    .map(([instructions, segments]) => [...instructions, ...segments.flat()]);
}
