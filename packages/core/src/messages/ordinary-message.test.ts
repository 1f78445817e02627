import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageSchemaOnFirstUse } from "./message-schema.js";
import { readOrdinaryMessage } from "./ordinary-message.js";

/** A value's shape with its keys in order and its prototype, so two values compare equal only when JSON would write them alike. */
function layout(value: unknown): unknown {
  if (Array.isArray(value)) return ["array", value.map(layout)];
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).map((key) => [key, layout((value as Record<string, unknown>)[key])]);
    return [Object.getPrototypeOf(value) === Object.prototype ? "object" : "object of another prototype", keys];
  }
  return [typeof value, value];
}

type Read = (input: unknown) => Record<string, unknown> | undefined;

/** Whatever `read` takes, the schema takes too, and returns alike: the same keys in the same order, the same values. */
function agreesWithSchema(read: Read, input: unknown): boolean {
  const ordinary = read(input);
  if (ordinary === undefined) return true;
  const result = messageSchemaOnFirstUse().safeParse(input);
  return result.success && JSON.stringify(layout(ordinary)) === JSON.stringify(layout(result.data));
}

type Entry = readonly [string, unknown];

/** An object from `entries` (those not null: a field left out) plus a few others, its keys in a generated order; an own `__proto__` may be among them. */
function objectOf(entries: readonly fc.Arbitrary<Entry | null>[], extraKey = anyKey): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.tuple(...entries), fc.array(fc.tuple(extraKey, anyValue), { maxLength: 2 }))
    .chain(([known, extra]) => {
      const all = [...known.filter((entry): entry is Entry => entry !== null), ...extra];
      return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
    })
    .map((entries) => Object.fromEntries(entries));
}

const anyKey = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("__proto__", "0", "7", "metadata", "tool_calls", "role", "type"));
// Keys no schema names: an ordinary message may carry them.
const otherKey = fc.constantFrom("extra", "0", "7", "cache_control", "refusal");
const field = (key: string, value: fc.Arbitrary<unknown>) => value.map((generated): Entry => [key, generated]);
const optionalField = (key: string, value: fc.Arbitrary<unknown>) => fc.option(field(key, value), { nil: null, freq: 2 });

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.constant({ nested: "value" }),
  fc.constant(new Date(0)),
);
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(""));
const identifier = fc.oneof(fc.constantFrom("call_1", "call_2", ""), text, anyValue);

const part = fc.oneof(
  objectOf([field("type", fc.constant("text")), field("text", fc.oneof(text, anyValue))]),
  objectOf([
    field("type", fc.constant("image_url")),
    field("image_url", fc.oneof(objectOf([field("url", fc.oneof(text, anyValue))]), anyValue)),
  ]),
  objectOf([
    field("type", fc.oneof(text, fc.constantFrom("tool-call", "tool-result", "tool_use", "tool_result", "input_audio"), anyValue)),
  ]),
  anyValue,
);
const content = fc.oneof(text, text, fc.array(part, { maxLength: 3 }), fc.constant(null), anyValue);
const toolCall = fc.oneof(
  objectOf([
    field("id", identifier),
    field("type", fc.oneof(fc.constant("function"), fc.constant("function"), anyValue)),
    field(
      "function",
      fc.oneof(objectOf([field("name", fc.oneof(text, anyValue)), optionalField("arguments", fc.oneof(text, anyValue))]), anyValue),
    ),
  ]),
  anyValue,
);
const message = objectOf([
  field("role", fc.oneof(fc.constantFrom("system", "developer", "user", "assistant", "tool"), text, anyValue)),
  optionalField("content", content),
  optionalField("tool_calls", fc.oneof(fc.array(toolCall, { maxLength: 3 }), anyValue)),
  optionalField("tool_call_id", identifier),
  optionalField("is_error", fc.oneof(fc.boolean(), anyValue)),
  optionalField("name", fc.oneof(text, anyValue)),
  fc.option(field("metadata", fc.oneof(fc.constant({ pinned: true }), anyValue)), { nil: null, freq: 5 }),
]);

/**
 * Messages of every role, their keys in any order, valid or one step from it: an id that is empty or repeats, a
 * part in another SDK's shape, an extra key. The edges of what the schema takes are where a reader would go wrong.
 */
const shortText = fc.string({ maxLength: 8 });
const someText = fc.oneof(fc.constantFrom("c1", "c2", ""), fc.string({ minLength: 1, maxLength: 4 }));
const validPart = fc.oneof(
  objectOf([field("type", fc.constant("text")), field("text", shortText)], otherKey),
  objectOf([field("type", fc.constant("image_url")), field("image_url", objectOf([field("url", shortText)], otherKey))], otherKey),
  objectOf([field("type", fc.constantFrom("input_audio", "file", "refusal", "", "tool_use", "tool-result"))], otherKey),
);
const validContent = fc.oneof(shortText, fc.array(validPart, { maxLength: 3 }));
const validCall = objectOf(
  [
    field("id", someText),
    field("type", fc.constant("function")),
    field("function", objectOf([field("name", someText), field("arguments", shortText)], otherKey)),
  ],
  otherKey,
);
const common = [optionalField("name", shortText)] as const;
const validMessage = fc.oneof(
  objectOf([field("role", fc.constantFrom("system", "developer", "user")), field("content", validContent), ...common], otherKey),
  objectOf(
    [
      field("role", fc.constant("assistant")),
      field("content", fc.oneof(validContent, fc.constant(null))),
      optionalField("tool_calls", fc.array(validCall, { minLength: 1, maxLength: 3 })),
      ...common,
    ],
    otherKey,
  ),
  objectOf(
    [
      field("role", fc.constant("tool")),
      field("content", validContent),
      field("tool_call_id", someText),
      optionalField("is_error", fc.boolean()),
      ...common,
    ],
    otherKey,
  ),
);
const anyMessage = fc.oneof(validMessage, message);

const SEEDS = [1, 2, 3, 4];

describe("readOrdinaryMessage", () => {
  it("should read an agent session's ordinary messages as the schema returns them, keys in the schema's order", () => {
    const messages = [
      { role: "system", content: "Be brief." },
      {
        content: [
          { text: "look", type: "text" },
          { type: "image_url", image_url: { url: "data:x", detail: "low" } },
        ],
        role: "user",
      },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: "a.ts", is_error: false },
      { role: "assistant", content: "Done.", name: "agent", extra: { kept: [1, 2] } },
      { role: "developer", content: [{ type: "input_audio", input_audio: { data: "AA", format: "wav" } }] },
    ];
    for (const input of messages) {
      const ordinary = readOrdinaryMessage(input);
      expect(ordinary, JSON.stringify(input)).toBeDefined();
      expect(agreesWithSchema(readOrdinaryMessage, input), JSON.stringify(input)).toBe(true);
    }
    expect(Object.keys(readOrdinaryMessage(messages[3])!)).toEqual(["role", "content", "tool_call_id", "is_error"]);
  });

  it("should leave metadata, foreign parts, duplicate call ids and wrong types to the schema", () => {
    const call = { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } };
    for (const input of [
      { role: "user", content: "hi", metadata: { pinned: true } },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "a" }] },
      { role: "assistant", content: null, tool_calls: [call, call] },
      { role: "assistant", content: null },
      { role: "tool", content: "a", tool_call_id: "" },
      { role: "user", content: "hi", name: undefined },
      { role: "robot", content: "hi" },
      JSON.parse('{"role":"user","content":"hi","__proto__":{"x":1}}'),
    ]) {
      expect(readOrdinaryMessage(input), JSON.stringify(input)).toBeUndefined();
    }
  });

  it.each(SEEDS)("should take only what the schema takes, and return it alike (seed %i)", (seed) => {
    let ordinary = 0;
    fc.assert(
      fc.property(anyMessage, (input) => {
        if (readOrdinaryMessage(input) !== undefined) ordinary += 1;
        return agreesWithSchema(readOrdinaryMessage, input);
      }),
      { seed, numRuns: 400 },
    );
    // The generator reaches the ordinary shapes often enough for the agreement to say something.
    expect(ordinary).toBeGreaterThan(100);
  });

  it.each([
    ["keeps the input's key order", (input: unknown) => (readOrdinaryMessage(input) === undefined ? undefined : { ...(input as object) })],
    [
      "takes any object",
      (input: unknown) => readOrdinaryMessage(input) ?? (typeof input === "object" && input !== null ? { ...input } : undefined),
    ],
  ] as const)("should catch a reader that %s", (_name, broken: Read) => {
    for (const seed of SEEDS) {
      const run = fc.check(
        fc.property(anyMessage, (input) => agreesWithSchema(broken, input)),
        { seed, numRuns: 400 },
      );
      expect(run.failed, `seed ${seed}`).toBe(true);
    }
  });
});
