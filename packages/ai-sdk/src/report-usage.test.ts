import { createSimpleContext } from "@ctxkit/context-simple";
import type { ContextManager } from "@ctxkit/core";
import { describe, expect, it, vi } from "vitest";
import { reportUsage } from "./report-usage.js";

describe("reportUsage", () => {
  it("should pass the provider's counts to a manager that takes them", async () => {
    const manager = createSimpleContext({ tokenizer: "estimate" });
    const spy = vi.spyOn(manager, "reportUsage");
    await reportUsage(manager, { inputTokens: 120, outputTokens: 8 });
    expect(spy).toHaveBeenCalledWith({ inputTokens: 120, outputTokens: 8 });
  });

  it("should skip a missing input count and a manager without the capability", async () => {
    const manager = createSimpleContext({ tokenizer: "estimate" });
    const spy = vi.spyOn(manager, "reportUsage");
    await reportUsage(manager, { inputTokens: undefined, outputTokens: 8 });
    expect(spy).not.toHaveBeenCalled();
    // A manager with the protocol's five methods only.
    const plain: ContextManager = {
      addMessage: (message) => manager.addMessage(message),
      getMessagesForRequest: (options) => manager.getMessagesForRequest(options),
      getMessages: () => manager.getMessages(),
      setMessages: (messages) => manager.setMessages(messages),
      clear: () => manager.clear(),
    };
    await expect(reportUsage(plain, { inputTokens: 1 })).resolves.toBeUndefined();
  });
});
