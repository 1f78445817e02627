import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import { firstIdentifiersOf, identifiersOf } from "./message-identifiers.js";
import { listIdentifiers } from "./tool-result-digest.js";

const NAMES = ["src/index.ts", "parseConfig", "view_tail", "README.md", "a2898e3f", "3482917", "plain", "words", "CompileError"];
const textArbitrary = fc.array(fc.constantFrom(...NAMES), { maxLength: 30 }).map((words) => words.join(" "));

const assistantCalling = (content: string, values: readonly string[]): Message => ({
  role: "assistant",
  content,
  tool_calls: values.map((value, index) => ({
    id: `call_${index}`,
    type: "function",
    function: { name: "read", arguments: JSON.stringify({ path: value, options: { pattern: value } }) },
  })),
});

describe("identifiersOf", () => {
  it("should list a message's text and then its tool-call argument values, each identifier once, in order of first appearance", () => {
    const message = assistantCalling("look at src/index.ts and parseConfig", ["lib/util.ts", "src/index.ts"]);
    expect(identifiersOf(message)).toEqual(["src/index.ts", "parseConfig", "lib/util.ts"]);
  });

  it("should read a tool result as its text alone, as the digest does", () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        const result: Message = { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text }] };
        expect(identifiersOf(result)).toEqual(listIdentifiers(text, Number.POSITIVE_INFINITY).identifiers);
      }),
      { seed: 20261128, numRuns: 200 },
    );
  });
});

describe("firstIdentifiersOf", () => {
  it("should give the first identifiers identifiersOf gives, whichever of the two reads the message first", () => {
    // A bounded read of a message with several texts must not stop a text early on identifiers already found in an earlier one.
    fc.assert(
      fc.property(
        textArbitrary,
        fc.array(textArbitrary, { maxLength: 3 }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        (content, values, count, isBoundedFirst) => {
          const fresh = () => assistantCalling(content, values);
          const expected = identifiersOf(fresh()).slice(0, count);
          const message = fresh();
          if (isBoundedFirst) {
            expect(firstIdentifiersOf(message, count)).toEqual(expected);
            expect(identifiersOf(message)).toEqual(identifiersOf(fresh()));
          } else {
            identifiersOf(message);
            expect(firstIdentifiersOf(message, count)).toEqual(expected);
          }
        },
      ),
      { seed: 20261128, numRuns: 300 },
    );
  });
});
