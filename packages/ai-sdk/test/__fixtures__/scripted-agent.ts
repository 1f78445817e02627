// A tool-using agent for tests: the AI SDK's own mock model, scripted to read files before it answers.
import type { ContextEventName } from "@ctxkit/core";
import { checkToolPairs } from "@ctxkit/core/kit";
import { createSimpleContext } from "@ctxkit/context-simple";
import { tool, type ModelMessage, type SystemModelMessage } from "ai";
import { standardizePrompt } from "ai/internal";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, beforeEach, expect, vi } from "vitest";
import { z } from "zod";
import { fromModelMessages } from "../../src/from-model-messages.js";
import type { GenerateResult, LanguageModelPrompt, StreamPart } from "../../src/language-model-types.js";

export const SYSTEM = "You read files and answer in one line.";

/** The user's turns of the scripted conversation. */
export const QUESTIONS = ["What is in a.txt?", "And in b.txt?", "Compare them.", "Summarize everything."];

/** Fails each test of the file during which the AI SDK printed a warning (a system message inside `messages`, say). */
export function failOnAiSdkWarnings(): void {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
}

/** Each tool result is long, so a few turns overflow the small budget and compaction has to run. */
export const tools = {
  read_file: tool({
    description: "Reads a file",
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `${path}: ${"lorem ipsum dolor sit amet ".repeat(30)}`,
  }),
};

function usage(inputTokens: number): GenerateResult["usage"] {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 7, text: 7, reasoning: 0 },
  };
}

/** The provider's count for a prompt, as a real provider would report it: made up, but a function of the prompt. */
export function reportedTokens(prompt: LanguageModelPrompt): number {
  return Math.ceil(JSON.stringify(prompt).length / 4);
}

/**
 * Within a turn (since the last user message) the model calls `read_file` for two files at once, then for
 * one more, then answers. Ids are `call_1`, `call_2` in every turn: real sessions repeat ids across turns.
 */
function nextContent(prompt: LanguageModelPrompt): GenerateResult["content"] {
  const lastUser = prompt.map((message) => message.role).lastIndexOf("user");
  const step = prompt.slice(lastUser + 1).filter((message) => message.role === "assistant").length;
  const call = (id: string, path: string) => ({
    type: "tool-call" as const,
    toolCallId: id,
    toolName: "read_file",
    input: JSON.stringify({ path }),
  });
  if (step === 0) return [{ type: "text", text: "Reading both." }, call("call_1", "a.txt"), call("call_2", "b.txt")];
  if (step === 1) return [call("call_1", "c.txt")];
  return [{ type: "text", text: `Answer after ${prompt.length} messages.` }];
}

export function createScriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const content = nextContent(prompt);
      const hasCalls = content.some((part) => part.type === "tool-call");
      return {
        content,
        finishReason: { unified: hasCalls ? "tool-calls" : "stop", raw: undefined },
        usage: usage(reportedTokens(prompt)),
        warnings: [],
      };
    },
    doStream: async ({ prompt }) => {
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      let hasCalls = false;
      nextContent(prompt).forEach((part, index) => {
        if (part.type === "text") {
          const id = `text-${index}`;
          parts.push(
            { type: "text-start", id },
            { type: "text-delta", id, delta: part.text.slice(0, 5) },
            { type: "text-delta", id, delta: part.text.slice(5) },
            { type: "text-end", id },
          );
        } else if (part.type === "tool-call") {
          hasCalls = true;
          parts.push(part);
        }
      });
      parts.push({
        type: "finish",
        finishReason: { unified: hasCalls ? "tool-calls" : "stop", raw: undefined },
        usage: usage(reportedTokens(prompt)),
      });
      return {
        stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }),
      };
    },
  });
}

/** A manager with a budget small enough that three turns of this agent cannot fit without compaction. */
export function createSmallManager() {
  const events: ContextEventName[] = [];
  const manager = createSimpleContext({ maxTokens: 900, tokenizer: "estimate", onEvent: (event) => void events.push(event) });
  return { manager, events };
}

/**
 * The checks every prompt a model receives must pass: the AI SDK's own validation with system messages kept
 * out of `messages`, whole tool pairs (core's check), and each result named after the call it answers.
 */
export async function expectValidPrompt(prompt: LanguageModelPrompt): Promise<void> {
  const system = prompt.filter((message) => message.role === "system") as SystemModelMessage[];
  const messages = prompt.filter((message) => message.role !== "system") as unknown as ModelMessage[];
  expect(prompt[0]).toEqual({ role: "system", content: SYSTEM });
  await standardizePrompt({ system, messages, allowSystemInMessages: false });
  expect(checkToolPairs(fromModelMessages(messages))).toEqual([]);
  messages.forEach((message, index) => {
    if (message.role !== "tool") return;
    const previous = messages[index - 1];
    for (const result of message.content) {
      if (result.type !== "tool-result") continue;
      const call = Array.isArray(previous?.content)
        ? previous.content.find((part) => part.type === "tool-call" && part.toolCallId === result.toolCallId)
        : undefined;
      expect(call).toMatchObject({ toolName: result.toolName });
    }
  });
}
