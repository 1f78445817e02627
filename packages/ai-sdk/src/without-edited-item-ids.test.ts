import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { withoutEditedItemIds } from "./without-edited-item-ids.js";

const answer: Message = {
  role: "assistant",
  content: [{ type: "text", text: "A long answer, in full.", providerOptions: { openai: { itemId: "msg_1" } } } as never],
};
const call: Message = {
  role: "assistant",
  content: null,
  tool_calls: [
    {
      id: "call_1",
      type: "function",
      function: { name: "write", arguments: '{"text":"long"}' },
      providerOptions: { openai: { itemId: "fc_1" } },
    } as never,
  ],
};
const history = [{ role: "user", content: "Hi" } as Message, answer, call];

describe("withoutEditedItemIds", () => {
  it("should keep the item id of a part the view sends as the history holds it, as the same object", () => {
    const view = withoutEditedItemIds(history, history);
    expect(view[1]).toBe(answer);
    expect(view[2]).toBe(call);
  });

  it("should take the item id off a trimmed text part, so it is sent as its content (regression)", () => {
    const trimmed: Message = {
      role: "assistant",
      content: [{ type: "text", text: "A long […] full.", providerOptions: { openai: { itemId: "msg_1" } } } as never],
    };
    const [sent] = withoutEditedItemIds([trimmed], history);
    expect(sent!.content).toEqual([{ type: "text", text: "A long […] full.", providerOptions: { openai: {} } }]);
  });

  it("should take the item id off a call whose arguments were shortened", () => {
    const shortened: Message = {
      ...call,
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "write", arguments: '{"text":"l…"}' },
          providerOptions: { openai: { itemId: "fc_1" } },
        } as never,
      ],
    };
    const [sent] = withoutEditedItemIds([shortened], history);
    expect((sent as unknown as { tool_calls: { providerOptions: unknown }[] }).tool_calls[0]!.providerOptions).toEqual({ openai: {} });
  });

  it("should take the item id off a part whose id the history does not hold", () => {
    const stranger: Message = {
      role: "assistant",
      content: [{ type: "text", text: "x", providerOptions: { openai: { itemId: "msg_9" } } } as never],
    };
    const [sent] = withoutEditedItemIds([stranger], history);
    expect(sent!.content).toEqual([{ type: "text", text: "x", providerOptions: { openai: {} } }]);
  });
});
