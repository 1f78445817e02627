// A scripted agent loop, offline: each turn a user asks for a file, a fake model calls a tool, reads the result and answers.
import type { ContextManager, ProviderUsageCapability } from "@ctxkit/core";

export interface LoopResult {
  historyLength: number;
  lastViewLength: number;
}

/** Runs `turns` turns on `context`, asking it for a view before each model call, as a real agent loop does. */
export async function runAgentLoop(
  context: ContextManager & ProviderUsageCapability,
  turns: number,
  tokenBudget: number,
): Promise<LoopResult> {
  await context.addMessage({ role: "system", content: "You read the project's files and answer in one line." });
  let lastViewLength = 0;
  for (let turn = 1; turn <= turns; turn += 1) {
    const file = `notes-${turn}.md`;
    await context.addMessage({ role: "user", content: `What is in ${file}?` });
    // The fake model's first call asks for the file; its second answers from the result.
    for (const step of ["call", "answer"] as const) {
      const view = await context.getMessagesForRequest({ tokenBudget });
      lastViewLength = view.length;
      // A rough count, as a provider would report it; the manager calibrates its budgets on it.
      await context.reportUsage({ inputTokens: Math.ceil(JSON.stringify(view).length / 4), outputTokens: 12 });
      if (step === "call") {
        const id = `call_${turn}`;
        await context.addMessage({
          role: "assistant",
          content: null,
          tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: file }) } }],
        });
        await context.addMessage({
          role: "tool",
          tool_call_id: id,
          content: `# ${file}\n${"A line of notes, long enough to matter. ".repeat(30)}`,
        });
      } else {
        await context.addMessage({ role: "assistant", content: `${file} holds thirty lines of notes.` });
      }
    }
  }
  return { historyLength: (await context.getMessages()).length, lastViewLength };
}
