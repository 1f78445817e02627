// An AI SDK tool loop against the installed tarballs, with the AI SDK's own mock model.
import { contextMiddleware } from "@ctxkit/ai-sdk";
import { createSimpleContext } from "@ctxkit/context-simple";
import { checkToolPairs } from "@ctxkit/core/kit";
import { generateText, stepCountIs, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
let calls = 0;
const model = new MockLanguageModelV3({
  // Asks for a tool on every other call, answers on the others.
  doGenerate: async () => {
    calls += 1;
    const content =
      calls % 2 === 1
        ? [{ type: "tool-call" as const, toolCallId: `call_${calls}`, toolName: "readFile", input: "{}" }]
        : [{ type: "text" as const, text: `Done ${calls}.` }];
    return {
      content,
      finishReason: { unified: calls % 2 === 1 ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
      usage,
      warnings: [],
    };
  },
});
const readFile = tool({ description: "Reads the file.", inputSchema: z.object({}), execute: async () => "x ".repeat(300) });

const context = createSimpleContext({ maxTokens: 1_500 });
const wrapped = wrapLanguageModel({ model, middleware: contextMiddleware(context) });
for (let turn = 0; turn < 12; turn += 1) {
  await generateText({
    model: wrapped,
    system: "You are a careful agent.",
    prompt: `Task ${turn}: read the file.`,
    tools: { readFile },
    stopWhen: stepCountIs(3),
  });
}
const history = await context.getMessages();
console.log(
  JSON.stringify({
    calls,
    historyLength: history.length,
    largestPrompt: Math.max(...model.doGenerateCalls.map((call) => call.prompt.length)),
    pairProblems: checkToolPairs(history).length,
  }),
);
