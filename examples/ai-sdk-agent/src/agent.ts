// The agent: an AI SDK tool loop whose every model call gets ctxkit's view of the conversation.
import { contextMiddleware } from "@ctxkit/ai-sdk";
import { createSimpleContext } from "@ctxkit/context-simple";
import { generateText, stepCountIs, tool, wrapLanguageModel } from "ai";
import { z } from "zod";

const tools = {
  readFile: tool({
    description: "Reads a project file",
    inputSchema: z.object({ path: z.string() }),
    // Long results, as real files are: they are what fills a context window.
    execute: async ({ path }) => `# ${path}\n${"A line of the file, long enough to matter. ".repeat(40)}`,
  }),
};

/** Any AI SDK model object: a provider's (`openai("gpt-4o")`, `gateway(...)`) or a mock. */
export type AgentModel = Parameters<typeof wrapLanguageModel>[0]["model"];

export interface AgentRun {
  answers: string[];
  historyLength: number;
  lastViewLength: number;
  compactions: number;
}

/** Asks each question in turn, sending only the new message: the context manager holds the conversation. */
export async function runAgent(model: AgentModel, questions: readonly string[], maxTokens: number): Promise<AgentRun> {
  let compactions = 0;
  const context = createSimpleContext({ maxTokens, onEvent: (event) => void (event === "context:post_compact" && (compactions += 1)) });
  const agentModel = wrapLanguageModel({ model, middleware: contextMiddleware(context) });
  const answers: string[] = [];
  for (const question of questions) {
    const { text } = await generateText({
      model: agentModel,
      system: "You answer questions about the project's files.",
      tools,
      prompt: question,
      stopWhen: stepCountIs(8),
    });
    answers.push(text);
  }
  const usage = await context.usage();
  return { answers, historyLength: (await context.getMessages()).length, lastViewLength: usage?.messageCount ?? 0, compactions };
}
