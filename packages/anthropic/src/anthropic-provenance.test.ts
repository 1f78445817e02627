import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import type { ContentBlock } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { mockAnthropic, textBlock } from "../test/__fixtures__/mock-anthropic.js";
import { anthropicProvenance, EARLIER_SUMMARY_LABEL } from "./anthropic-provenance.js";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { contextMessages } from "./loop/context-messages.js";
import { toAnthropicMessages } from "./to-anthropic-messages.js";

const thinking = { type: "thinking" as const, thinking: "Read a.txt first.", signature: "c2lnbmVk" };
const compaction = { type: "compaction", content: "The user read a.txt.", encrypted_content: null, signature: "Y29tcA==" };
const bySonnet = anthropicProvenance("claude-sonnet-4-6");
const history: Message[] = [
  { role: "assistant", content: [compaction], metadata: { pinned: true, provenance: bySonnet } },
  { role: "user", content: "And b.txt?" },
  { role: "assistant", content: [thinking, { type: "text", text: "It says beta." }], metadata: { provenance: bySonnet } },
  { role: "user", content: "Thanks." },
];

describe("toAnthropicMessages", () => {
  describe("targetModel", () => {
    it("should send the thinking and compaction blocks of the target's own model byte-identical", () => {
      const { messages } = toAnthropicMessages(history, { targetModel: "claude-sonnet-4-6", cache: false });
      expect(messages[0]!.content).toEqual([compaction]);
      expect(messages[2]!.content[0]).toEqual(thinking);
    });

    it("should leave another model's thinking out and send its compaction summary as marked text", () => {
      const { messages } = toAnthropicMessages(history, { targetModel: "claude-opus-4-1", cache: false });
      expect(JSON.stringify(messages)).not.toMatch(/c2lnbmVk|Y29tcA==|"thinking"/);
      expect(messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "(earlier messages left out)" }] });
      expect(messages[1]!.content).toEqual([{ type: "text", text: `${EARLIER_SUMMARY_LABEL}\nThe user read a.txt.` }]);
      expect(messages[3]!.content).toEqual([{ type: "text", text: "It says beta." }]);
    });

    it("should send every block as stored without a target", () => {
      expect(JSON.stringify(toAnthropicMessages(history, { cache: false }))).toContain("c2lnbmVk");
    });
  });
});

describe("fromAnthropicMessages", () => {
  it("should record the given provenance on the assistant messages that hold thinking", () => {
    const [user, assistant] = fromAnthropicMessages(
      [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [thinking, { type: "text", text: "Hello." }] },
      ],
      { provenance: bySonnet },
    );
    expect(user!.metadata).toBeUndefined();
    expect(assistant!.metadata).toEqual({ provenance: bySonnet });
  });
});

describe("contextMessages", () => {
  it("should record the response's model and send its thinking back only to that model", async () => {
    const reply: ContentBlock[] = [{ type: "thinking", thinking: "Answer directly.", signature: "c2ln" }, textBlock("Done.")];
    const { client, requests } = mockAnthropic([reply]);
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    const claude = contextMessages(client, context);
    await claude.create({ model: "claude-test", max_tokens: 1024, messages: [{ role: "user", content: "One?" }] });
    expect((await context.getMessages())[1]!.metadata).toEqual({ provenance: { provider: "anthropic", model: "claude-test" } });
    await claude.create({ model: "claude-test", max_tokens: 1024, messages: [{ role: "user", content: "Two?" }] });
    await claude.create({ model: "claude-other", max_tokens: 1024, messages: [{ role: "user", content: "Three?" }] });
    const thinkingSent = requests.map((request) => JSON.stringify(request.messages).split('"type":"thinking"').length - 1);
    expect(thinkingSent).toEqual([0, 1, 0]);
    const off = mockAnthropic([reply]);
    const unchecked = contextMessages(off.client, context, { checkProvenance: false });
    await unchecked.create({ model: "claude-other", max_tokens: 1024, messages: [{ role: "user", content: "Four?" }] });
    expect(JSON.stringify(off.requests[0]!.messages).split('"type":"thinking"').length - 1).toBe(3);
  });
});
