import { historyArbitrary, historyWithNonTextPartsArbitrary } from "@ctxkit/conformance";
import type { Message } from "@ctxkit/core";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromLangchainMessages } from "./from-langchain-messages.js";
import { toLangchainMessages } from "./to-langchain-messages.js";

/**
 * What a round trip keeps: everything but `metadata` and a tool message's `name`; an assistant that only calls
 * tools says `null`, as LangChain says "".
 */
function expectedBack(message: Message): Message {
  const { metadata: _metadata, ...rest } = message;
  if (rest.role === "tool") {
    const { name: _name, ...result } = rest;
    return result;
  }
  if (rest.role !== "assistant" || rest.tool_calls === undefined) return rest;
  const blank = rest.content === "" || (Array.isArray(rest.content) && rest.content.length === 0);
  return blank ? { ...rest, content: null } : rest;
}

const histories = fc.oneof(
  historyArbitrary({ broken: true, hugeOutputs: false }),
  historyWithNonTextPartsArbitrary({ hugeOutputs: false }),
);

describe("ctxkit messages through LangChain's and back", () => {
  it("should give back every message as it was (metadata aside), from the instances and from their JSON", () => {
    fc.assert(
      fc.property(histories, (history) => {
        const langchain = toLangchainMessages(history);
        const expected = history.map(expectedBack);
        expect(fromLangchainMessages(langchain)).toEqual(expected);
        expect(fromLangchainMessages(JSON.parse(JSON.stringify(langchain)))).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});

const textArbitrary = fc.string({ minLength: 1, maxLength: 20 });
const idArbitrary = fc.stringMatching(/^call_[a-z0-9]{1,8}$/);
const argsArbitrary = fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()), {
  maxKeys: 3,
});

/** LangChain messages as models and tools produce them: content blocks, parsed and invalid calls, tool statuses. */
const langchainMessageArbitrary: fc.Arbitrary<BaseMessage> = fc.oneof(
  textArbitrary.map((text) => new HumanMessage(text)),
  fc
    .array(
      fc.oneof(
        textArbitrary.map((text) => ({ type: "text", text })),
        fc.webUrl().map((url) => ({ type: "image_url", image_url: { url, detail: "low" } })),
        textArbitrary.map((reasoning) => ({ type: "reasoning", reasoning })),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((content) => new HumanMessage({ content })),
  fc
    .tuple(
      fc.oneof(fc.constant(""), textArbitrary),
      fc.uniqueArray(fc.record({ id: idArbitrary, name: fc.constantFrom("read_file", "grep"), args: argsArbitrary }), {
        selector: (call) => call.id,
        maxLength: 3,
      }),
      fc.option(
        fc.record({ id: fc.constant("call_invalid"), name: fc.constant("bash"), args: fc.constant('{"cmd": "ls'), error: textArbitrary }),
      ),
    )
    .map(
      ([content, calls, invalid]) =>
        new AIMessage({
          content: content === "" && calls.length === 0 && invalid === null ? "ok" : content,
          tool_calls: calls.map((call) => ({ ...call, type: "tool_call" as const })),
          invalid_tool_calls: invalid === null ? [] : [{ ...invalid, type: "invalid_tool_call" as const }],
        }),
    ),
  fc
    .tuple(idArbitrary, textArbitrary, fc.constantFrom(undefined, "success" as const, "error" as const))
    .map(([id, content, status]) => new ToolMessage({ content, tool_call_id: id, ...(status === undefined ? {} : { status }) })),
);

describe("LangChain messages through ctxkit's and back", () => {
  it("should keep every text, block, call (id, name, args) and tool result with its status", () => {
    fc.assert(
      fc.property(fc.array(langchainMessageArbitrary, { maxLength: 6 }), (messages) => {
        const back = toLangchainMessages(fromLangchainMessages(messages));
        expect(back.map((message) => message.type)).toEqual(messages.map((message) => message.type));
        for (const [index, message] of messages.entries()) {
          const returned = back[index]!;
          expect(returned.content).toEqual(message.content);
          if (AIMessage.isInstance(message)) {
            const calls = [...(message.tool_calls ?? []), ...(message.invalid_tool_calls ?? [])];
            const returnedCalls = (returned as AIMessage).tool_calls ?? [];
            expect(returnedCalls.map((call) => [call.id, call.name])).toEqual(calls.map((call) => [call.id, call.name]));
            // Parsed arguments come back parsed; an invalid call's text travels as the kit's unparsed arguments.
            expect(returnedCalls.map((call) => call.args)).toEqual(
              calls.map((call) => (typeof call.args === "string" ? { ctxkit_unparsed_arguments: call.args } : call.args)),
            );
          }
          if (ToolMessage.isInstance(message)) {
            expect((returned as ToolMessage).tool_call_id).toBe(message.tool_call_id);
            expect((returned as ToolMessage).status).toBe(message.status);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
