import { createSimpleContext } from "@ctxkit/context-simple";
import { budgetArbitrary, historyArbitrary } from "@ctxkit/conformance";
import { ContextBudgetError, type ContentPart, type Message } from "@ctxkit/core";
import { checkToolPairs } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromAgentInputItems, toAgentInputItems } from "./agents/agent-items.js";
import { fromChatCompletionMessages } from "./chat-completions/from-chat-completion-messages.js";
import { toChatCompletionMessages } from "./chat-completions/to-chat-completion-messages.js";
import { fromResponseInputItems } from "./responses/from-response-input-items.js";
import { toResponseInputItems } from "./responses/to-response-input-items.js";

// Generated histories put images in any role; OpenAI takes them in user messages only.
function onlyImagesWhereOpenAITakesThem(message: Message): Message {
  if (message.role === "user" || typeof message.content === "string" || message.content === null) return message;
  const content: ContentPart[] = message.content.filter((part) => part.type === "text");
  return { ...message, content };
}

async function viewOf(history: Message[], budget: number): Promise<Message[] | undefined> {
  const context = createSimpleContext({ maxTokens: budget, tokenizer: "estimate" });
  await context.setMessages(history.map(onlyImagesWhereOpenAITakesThem));
  try {
    return await context.getMessagesForRequest();
  } catch (error) {
    if (error instanceof ContextBudgetError) return undefined;
    throw error;
  }
}

function withoutMetadata(message: Message): Message {
  const { metadata: _metadata, ...rest } = message;
  return rest;
}

/** Roles with runs of assistant messages collapsed, plus every call id: what items must keep. */
function skeleton(messages: readonly Message[], instructionRole?: "system"): { roles: string[]; calls: string[] } {
  const roles = messages
    .map((message) => (message.role === "developer" && instructionRole !== undefined ? instructionRole : message.role))
    .filter((role, index, all) => role !== "assistant" || all[index - 1] !== "assistant");
  const calls = messages.flatMap((message) =>
    message.role === "assistant"
      ? (message.tool_calls ?? []).map((call) => call.id)
      : message.role === "tool"
        ? [`result:${message.tool_call_id}`]
        : [],
  );
  return { roles, calls };
}

const arbitraries = [historyArbitrary({ broken: true, hugeOutputs: false }), budgetArbitrary({ min: 200, max: 20_000 })] as const;

describe("every view a manager builds, through each OpenAI shape and back", () => {
  it("should keep every message and every tool pair through Chat Completions, Responses items and agent items", async () => {
    await fc.assert(
      fc.asyncProperty(...arbitraries, async (history, budget) => {
        const view = await viewOf(history, budget);
        if (view === undefined) return;
        const throughChat = fromChatCompletionMessages(toChatCompletionMessages(view));
        expect(throughChat).toEqual(view.map(withoutMetadata));
        // Items have no assistant message boundary: an assistant's text and the next assistant's calls read as one turn.
        for (const [messages, instructionRole] of [
          [fromResponseInputItems(toResponseInputItems(view)), undefined],
          [fromAgentInputItems(toAgentInputItems(view)), "system"],
        ] as const) {
          expect(skeleton(messages)).toEqual(skeleton(view, instructionRole));
          expect(checkToolPairs(messages)).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });
});
