import { createSimpleContext } from "@ctxkit/context-simple";
import { budgetArbitrary, checkAnthropicRequest, historyArbitrary } from "@ctxkit/conformance";
import { ContextBudgetError, ContextValidationError, type ContentPart, type Message } from "@ctxkit/core";
import { hasToolCalls, isInstruction, textOfContent } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countBreakpoints } from "../test/__fixtures__/check-anthropic-messages.js";
import { toAnthropicMessages, type AnthropicRequest } from "./to-anthropic-messages.js";

const hasNothingToSend = (message: Message) =>
  !hasToolCalls(message) &&
  message.role !== "tool" &&
  textOfContent(message.content).trim() === "" &&
  (typeof message.content === "string" || message.content === null || message.content.every((part) => part.type === "text"));

// Generated histories put images in any role; Anthropic takes them from users and tools only.
function onlyImagesWhereAnthropicTakesThem(message: Message): Message {
  if (message.role === "user" || message.role === "tool" || typeof message.content === "string" || message.content === null) return message;
  const content: ContentPart[] = message.content.filter((part) => part.type === "text");
  return { ...message, content };
}

describe("toAnthropicMessages on any view a manager builds", () => {
  it("should follow Anthropic's rules: user first, roles alternate, every tool_use answered in the next message, at most four breakpoints", async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary({ broken: true, hugeOutputs: false }),
        budgetArbitrary({ min: 200, max: 20_000 }),
        async (history, budget) => {
          const context = createSimpleContext({ maxTokens: budget, tokenizer: "estimate" });
          await context.setMessages(history.map(onlyImagesWhereAnthropicTakesThem));
          let view: Message[];
          try {
            view = await context.getMessagesForRequest();
          } catch (error) {
            if (error instanceof ContextBudgetError) return;
            throw error;
          }
          let request: AnthropicRequest;
          try {
            request = toAnthropicMessages(view, { previous: view.slice(0, -1) });
          } catch (error) {
            // Refused before any request only when nothing in the view is content Anthropic takes.
            expect(error).toBeInstanceOf(ContextValidationError);
            expect(view.filter((message) => !isInstruction(message)).every(hasNothingToSend)).toBe(true);
            return;
          }
          expect(checkAnthropicRequest(request)).toEqual([]);
          expect(countBreakpoints(request)).toBeLessThanOrEqual(4);
        },
      ),
      { numRuns: 150 },
    );
  });
});
