import { parseMessage, type Message } from "@ctxkit/core";
import type { ModelMessage, SystemModelMessage } from "ai";
import { standardizePrompt } from "ai/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { modelMessagesArbitrary, systemArbitrary } from "../test/__fixtures__/model-message-arbitraries.js";
import { fromModelMessages } from "./from-model-messages.js";
import { toModelMessages } from "./to-model-messages.js";

/** What `toModelMessages` gives for a `system` option: a lone plain system message reads back as a string. */
function expectedSystem(system: string | SystemModelMessage[] | undefined): string | SystemModelMessage[] | undefined {
  if (Array.isArray(system) && system.length === 1 && system[0]!.providerOptions === undefined) return system[0]!.content;
  return system;
}

// An OpenAI-shaped history, as most ctxkit sessions hold: string contents, JSON argument strings.
const openAiHistory: fc.Arbitrary<Message[]> = fc
  .array(
    fc.oneof(
      fc.string().map((content): Message[] => [{ role: "user", content }]),
      fc.string().map((content): Message[] => [{ role: "assistant", content }]),
      fc
        .record({
          content: fc.option(fc.string({ minLength: 1 }), { nil: null }),
          ids: fc.uniqueArray(fc.constantFrom("call_1", "call_2", "call_3"), { minLength: 1, maxLength: 3 }),
          argument: fc.jsonValue().map((value) => JSON.stringify(value)),
          result: fc.string(),
        })
        .map(({ content, ids, argument, result }): Message[] => [
          {
            role: "assistant",
            content,
            tool_calls: ids.map((id) => ({ id, type: "function", function: { name: `tool_${id}`, arguments: argument } })),
          },
          ...ids.map((id): Message => ({ role: "tool", tool_call_id: id, content: result })),
        ]),
    ),
    { maxLength: 8 },
  )
  .map((groups) => [{ role: "system", content: "You are terse." } as Message, ...groups.flat()]);

describe("round trip", () => {
  it("should give back the same AI SDK messages and system after going through ctxkit", () => {
    fc.assert(
      fc.property(modelMessagesArbitrary, systemArbitrary, (messages, system) => {
        const converted = fromModelMessages(messages, system === undefined ? {} : { system });
        const back = toModelMessages(converted);
        const expected = expectedSystem(system);
        expect(back).toEqual(expected === undefined ? { messages } : { system: expected, messages });
      }),
      { numRuns: 300 },
    );
  });

  it("should only produce ctxkit messages that a manager accepts", () => {
    fc.assert(
      fc.property(modelMessagesArbitrary, systemArbitrary, (messages, system) => {
        for (const message of fromModelMessages(messages, system === undefined ? {} : { system }))
          expect(() => parseMessage(message)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it("should give back the same ctxkit messages after going through the AI SDK", () => {
    fc.assert(
      fc.property(modelMessagesArbitrary, systemArbitrary, (messages, system) => {
        const history = fromModelMessages(messages, system === undefined ? {} : { system });
        const prompt = toModelMessages(history);
        expect(fromModelMessages(prompt.messages, prompt.system === undefined ? {} : { system: prompt.system })).toEqual(history);
      }),
      { numRuns: 200 },
    );
  });

  it("should keep an OpenAI-shaped history exactly through the AI SDK shape", () => {
    fc.assert(
      fc.property(openAiHistory, (history) => {
        const prompt = toModelMessages(history);
        expect(fromModelMessages(prompt.messages, prompt.system === undefined ? {} : { system: prompt.system })).toEqual(history);
      }),
      { numRuns: 200 },
    );
  });

  it("should only produce prompts that pass the AI SDK's own validation, with no system message inside messages", async () => {
    await fc.assert(
      fc.asyncProperty(
        modelMessagesArbitrary.filter((messages) => messages.length > 0),
        systemArbitrary,
        async (messages, system) => {
          const prompt = toModelMessages(fromModelMessages(messages, system === undefined ? {} : { system }));
          const standardized = await standardizePrompt({
            ...prompt,
            messages: prompt.messages as ModelMessage[],
            allowSystemInMessages: false,
          });
          expect(standardized.messages).toHaveLength(prompt.messages.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
