import { generateText, stepCountIs, streamText, type ModelMessage } from "ai";
import { describe, expect, it, vi } from "vitest";
import {
  createScriptedModel,
  createSmallManager,
  expectValidPrompt,
  failOnAiSdkWarnings,
  QUESTIONS,
  reportedTokens,
  SYSTEM,
  tools,
} from "../test/__fixtures__/scripted-agent.js";
import { createContextSteps } from "./context-steps.js";
import { fromModelMessages } from "./from-model-messages.js";

failOnAiSdkWarnings();

async function runTurns(resend: "whole conversation" | "new messages only", run: "generate" | "stream", stopAfter = 5) {
  const { manager, events } = createSmallManager();
  // With the steps, the system prompt lives in the manager: prepareStep cannot see the `system` option.
  await manager.addMessage({ role: "system", content: SYSTEM });
  const reportUsage = vi.spyOn(manager, "reportUsage");
  const model = createScriptedModel();
  const steps = createContextSteps(manager);
  const conversation: ModelMessage[] = [];
  for (const question of QUESTIONS) {
    const user: ModelMessage = { role: "user", content: question };
    const messages = resend === "whole conversation" ? [...conversation, user] : [user];
    const options = { model, tools, messages, stopWhen: stepCountIs(stopAfter), ...steps };
    const response = run === "stream" ? await streamText(options).response : (await generateText(options)).response;
    conversation.push(user, ...response.messages);
  }
  const prompts = run === "stream" ? model.doStreamCalls.map((call) => call.prompt) : model.doGenerateCalls.map((call) => call.prompt);
  return { manager, events, reportUsage, prompts, conversation };
}

describe("createContextSteps", () => {
  describe.each(["whole conversation", "new messages only"] as const)("when the caller sends the %s", (resend) => {
    it("should give every step a valid, pair-safe prompt, and compact when the budget requires it", async () => {
      const { prompts, events, conversation } = await runTurns(resend, "generate");
      expect(prompts).toHaveLength(QUESTIONS.length * 3);
      for (const prompt of prompts) await expectValidPrompt(prompt);
      expect(events).toContain("context:post_compact");
      expect(prompts.at(-1)!.length - 1).toBeLessThan(conversation.length);
    });

    it("should keep the AI SDK's own messages in the manager's history, each once", async () => {
      const { manager, conversation } = await runTurns(resend, "generate");
      expect(await manager.getMessages()).toEqual(fromModelMessages(conversation, { system: SYSTEM }));
    });

    it("should report each step's usage to the manager", async () => {
      const { reportUsage, prompts } = await runTurns(resend, "generate");
      expect(reportUsage.mock.calls.map(([usage]) => usage)).toEqual(
        prompts.map((prompt) => ({ inputTokens: reportedTokens(prompt), outputTokens: 7 })),
      );
    });
  });

  it("should keep the tool results of a loop stopped right after its tools ran", async () => {
    // Two steps: the second step's calls run, but no model call follows to carry their results.
    const { manager, conversation } = await runTurns("new messages only", "generate", 2);
    expect(conversation.at(-1)!.role).toBe("tool");
    expect(await manager.getMessages()).toEqual(fromModelMessages(conversation, { system: SYSTEM }));
  });

  it("should do the same for streamText", async () => {
    const { manager, prompts, conversation, reportUsage } = await runTurns("whole conversation", "stream");
    for (const prompt of prompts) await expectValidPrompt(prompt);
    expect(await manager.getMessages()).toEqual(fromModelMessages(conversation, { system: SYSTEM }));
    expect(reportUsage).toHaveBeenCalledTimes(prompts.length);
  });

  it("should not add the view back when an AI SDK carries a step's messages override forward (regression)", async () => {
    const { manager } = createSmallManager();
    const old = Array.from(
      { length: 20 },
      (_, index): ModelMessage => ({ role: index % 2 === 0 ? "user" : "assistant", content: `old ${index} ${"x".repeat(300)}` }),
    );
    await manager.setMessages(fromModelMessages(old));
    const steps = createContextSteps(manager);
    const user: ModelMessage = { role: "user", content: "new question" };
    const first = await steps.prepareStep({ messages: [...old, user], stepNumber: 0, steps: [] });
    expect(first.messages.length).toBeLessThan(old.length + 1);
    const response: ModelMessage[] = [
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "a" } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: { type: "text", value: "a" } }],
      },
    ];
    await steps.onStepFinish({ response: { messages: response }, usage: { inputTokens: 100, outputTokens: 5 } });
    // The next step is handed the previous view plus the response, not the conversation.
    await steps.prepareStep({ messages: [...first.messages, ...response], stepNumber: 1, steps: [{ response: { messages: response } }] });
    expect(await manager.getMessages()).toEqual(fromModelMessages([...old, user, ...response]));
  });
});
