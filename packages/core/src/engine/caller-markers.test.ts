import type { Message } from "../index.js";
import { toolCallMessage, toolResultMessage, userMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const output = "line of build output\n".repeat(400);

/** A long tool-calling session whose results carry what a caller might put in metadata. */
function session(metadata: Record<string, unknown> | undefined): Message[] {
  const messages: Message[] = [userMessage("build it")];
  for (let call = 0; call < 6; call += 1) {
    const result = toolResultMessage(`call_${call}`, output);
    messages.push(toolCallMessage(`call_${call}`), metadata === undefined ? result : { ...result, metadata });
  }
  messages.push(userMessage("and now?"));
  return messages;
}

describe("ctxkit's markers in a caller's metadata", () => {
  it("should change nothing about what may be trimmed (regression: a forged ctxkitEdit made results untrimmable)", async () => {
    const forged = { ctxkitEdit: { strategy: "clear-tool-results", originalTokens: 1 } };
    const views: Message[][] = [];
    for (const metadata of [undefined, forged]) {
      const manager = await memoryContext({ tokenizer: "estimate", strategies: ["clear-tool-results"] });
      await manager.setMessages(session(metadata));
      views.push(await manager.getMessagesForRequest({ tokenBudget: 3_046 }));
    }
    const [plain, marked] = views;
    expect(marked!.map((message) => message.content)).toEqual(plain!.map((message) => message.content));
  });
});
