import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../messages/message.js";
import { parseMessage } from "../messages/parse-message.js";
import { applyProvenancePolicy, canVerify, isSameModel, provenanceOf, wasReadBy, withProvenance } from "./provenance.js";

const thinking = { type: "thinking", thinking: "Check the config first.", signature: "c2lnbmVk" };
const compaction = { type: "compaction", content: "The user read a.txt.", encrypted_content: null };
const byOpus: AssistantMessage = {
  role: "assistant",
  content: [thinking, { type: "text", text: "Reading it." }],
  tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read_file", arguments: "{}" } }],
  metadata: { provenance: { provider: "anthropic", model: "claude-opus-4-1" } },
};
const history: Message[] = [
  { role: "user", content: "Read the config." },
  byOpus,
  { role: "tool", tool_call_id: "toolu_1", content: "{}" },
];

describe("applyProvenancePolicy", () => {
  describe("target", () => {
    it("should keep every item as stored when no target is given", () => {
      const sent = applyProvenancePolicy(history, { target: undefined });
      expect(sent).toEqual(history);
      expect(sent[1]).toBe(byOpus);
    });

    it("should keep the items of the target's own model, as the same object", () => {
      const sent = applyProvenancePolicy(history, { target: { provider: "anthropic", model: "claude-opus-4-1-20250805" } });
      expect(sent[1]).toBe(byOpus);
    });

    it("should drop the items of another model, whole, and keep the rest of the message", () => {
      const sent = applyProvenancePolicy(history, { target: { provider: "anthropic", model: "claude-sonnet-4-6" } });
      expect(sent[1]).toEqual({ ...byOpus, content: [{ type: "text", text: "Reading it." }] });
      expect(JSON.stringify(sent)).not.toContain("c2lnbmVk");
      // The same converted object on the next request, so the prefix stays identical.
      expect(applyProvenancePolicy(history, { target: { provider: "anthropic", model: "claude-sonnet-4-6" } })[1]).toBe(sent[1]);
    });

    it("should leave a message with no provenance as it is (histories recorded before it was kept)", () => {
      const { metadata: _metadata, ...unknown } = byOpus;
      const sent = applyProvenancePolicy([unknown], { target: { provider: "openai", model: "gpt-5" } });
      expect(sent[0]).toBe(unknown);
    });

    it("should read null content beside calls and an empty string otherwise when nothing is left", () => {
      const onlyThinking: Message[] = [
        { ...byOpus, content: [thinking] },
        { role: "assistant", content: [thinking], metadata: byOpus.metadata! },
      ];
      const sent = applyProvenancePolicy(onlyThinking, { target: { provider: "openai", model: "gpt-5" } });
      expect(sent.map((message) => message.content)).toEqual([null, ""]);
    });
  });

  describe("readableText", () => {
    it("should say a readable item in words, and drop what it gives no text for", () => {
      const message: Message = { role: "assistant", content: [compaction, thinking], metadata: byOpus.metadata! };
      const sent = applyProvenancePolicy([message], {
        target: { provider: "openai", model: "gpt-5" },
        readableText: (part) => (part.type === "compaction" ? `Earlier: ${String(part.content)}` : undefined),
      });
      expect(sent[0]!.content).toEqual([{ type: "text", text: "Earlier: The user read a.txt." }]);
    });
  });
});

describe("canVerify", () => {
  it("should compare the provider's family, the model without its snapshot date, and the account when both name one", () => {
    const issued = { provider: "openai", model: "gpt-5-mini-2025-08-07", account: "key:1" };
    expect(canVerify(issued, { provider: "openai.responses", model: "gpt-5-mini" })).toBe(true);
    expect(canVerify(issued, { provider: "openai", model: "gpt-5-mini", account: "key:2" })).toBe(false);
    expect(canVerify(issued, { provider: "openai", model: "gpt-5" })).toBe(false);
    expect(canVerify(issued, { provider: "anthropic", model: "gpt-5-mini" })).toBe(false);
    expect(isSameModel("claude-sonnet-4-5-20250929", "claude-sonnet-4-5")).toBe(true);
  });
});

describe("withProvenance", () => {
  it("should record the provenance on assistant messages that hold a provider-native part, as a field the message schema takes", () => {
    const plain: Message = { role: "assistant", content: "Done." };
    const recorded = withProvenance([...history, plain], { provider: "anthropic", model: "claude-sonnet-4-6" });
    expect(recorded.map(provenanceOf)).toEqual([undefined, { provider: "anthropic", model: "claude-sonnet-4-6" }, undefined, undefined]);
    expect(recorded[3]).toBe(plain);
    expect(parseMessage(recorded[1]!).metadata?.provenance).toEqual({ provider: "anthropic", model: "claude-sonnet-4-6" });
    expect(() => parseMessage({ ...byOpus, metadata: { provenance: { provider: "anthropic" } } } as never)).toThrow(/provenance\.model/);
  });
});

describe("wasReadBy", () => {
  const user: Message = { role: "user", content: "Read a.txt." };
  const target = { provider: "anthropic", model: "claude-opus-4-1-20250805" };

  it("should decide on the model the request was sent to when the caller named it", () => {
    expect(wasReadBy({ messages: [user], model: "claude-opus-4-1" }, target)).toBe(true);
    expect(wasReadBy({ messages: [user, byOpus], model: "claude-haiku-4-5" }, target)).toBe(false);
  });

  it("should otherwise go by the latest recorded provenance, of the same family", () => {
    expect(wasReadBy({ messages: [user, byOpus] }, target)).toBe(true);
    expect(wasReadBy({ messages: [user, byOpus] }, { provider: "openai", model: "claude-opus-4-1" })).toBe(false);
    const bySonnet = { ...byOpus, metadata: { provenance: { provider: "anthropic", model: "claude-sonnet-4-5" } } };
    expect(wasReadBy({ messages: [byOpus, user, bySonnet] }, target)).toBe(false);
  });

  it("should say no when nothing tells which model read the conversation", () => {
    expect(wasReadBy({ messages: [user] }, target)).toBe(false);
  });
});
