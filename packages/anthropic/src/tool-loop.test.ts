import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { checkAnthropicMessages, countBreakpoints } from "../test/__fixtures__/check-anthropic-messages.js";
import { mockAnthropic, textBlock, toolUseBlock } from "../test/__fixtures__/mock-anthropic.js";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { toAnthropicMessages } from "./to-anthropic-messages.js";

describe("a tool loop through client.messages.create", () => {
  it("should send requests Anthropic accepts, with pairs adjacent and the shared prefix cached, through compaction", async () => {
    const replies = Array.from({ length: 6 }, (_, index) => [
      textBlock(`Step ${index}.`),
      toolUseBlock(`toolu_${index}`, "grep", { pattern: `p${index}` }),
      toolUseBlock(`toolu_${index}b`, "ls", {}),
    ]);
    const { client, requests } = mockAnthropic([...replies, [textBlock("All done.")]]);
    const context = createSimpleContext({ maxTokens: 1_500, tokenizer: "estimate" });
    await context.addMessage({ role: "system", content: "You search code.", metadata: { pinned: true } });
    await context.addMessage({ role: "user", content: "Find every use." });

    let previous: Message[] | undefined;
    for (let step = 0; step < 10; step += 1) {
      const view = await context.getMessagesForRequest();
      const { system, messages } = toAnthropicMessages(view, previous === undefined ? {} : { previous });
      previous = view;
      const response = await client.messages.create({
        model: "claude-test",
        max_tokens: 1024,
        ...(system === undefined ? {} : { system }),
        messages,
      });
      for (const message of fromAnthropicMessages([response])) await context.addMessage(message);
      const uses = response.content.filter((block) => block.type === "tool_use");
      if (uses.length === 0) break;
      for (const use of uses) await context.addMessage({ role: "tool", tool_call_id: use.id, content: `${use.name} output\n`.repeat(40) });
    }

    expect(requests).toHaveLength(7);
    for (const request of requests) {
      expect(checkAnthropicMessages(request.messages)).toEqual([]);
      expect(countBreakpoints(request)).toBeLessThanOrEqual(4);
      expect(JSON.stringify(request)).not.toContain("metadata");
    }
    // Between two requests with no compaction, the later one marks where the earlier one ended.
    expect(countBreakpoints(requests[1]!)).toBe(3);
    expect(await context.getMessages()).toHaveLength(2 + 6 * 3 + 1);
    // The budget forced compaction: the last request holds less than the whole history.
    const lastRequest = JSON.stringify(requests.at(-1)!.messages);
    expect(lastRequest.length).toBeLessThan(
      JSON.stringify(toAnthropicMessages(await context.getMessages(), { cache: false }).messages).length * 0.8,
    );
  });
});

describe("checkAnthropicMessages", () => {
  it("should catch a tool_use whose result is not in the next user message, and roles that do not alternate", () => {
    expect(
      checkAnthropicMessages([
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }] },
        {
          role: "user",
          content: [
            { type: "text", text: "wait" },
            { type: "tool_result", tool_use_id: "t1", content: "x" },
          ],
        },
        { role: "user", content: "again" },
      ]),
    ).toEqual(["3: two user messages in a row", "1: tool_use ids were found without tool_result blocks immediately after: t1"]);
  });
});
