// A stand-in model that needs no network: it reads two files, then one more, then answers, every turn.
import { MockLanguageModelV3 } from "ai/test";

function usage(prompt: unknown) {
  // A made-up count, as a provider would report one: ctxkit calibrates its own counts against it.
  const inputTokens = Math.ceil(JSON.stringify(prompt).length / 4);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 12, text: 12, reasoning: 0 },
  };
}

export function createMockModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const lastUser = prompt.map((message) => message.role).lastIndexOf("user");
      const step = prompt.slice(lastUser + 1).filter((message) => message.role === "assistant").length;
      const read = (id: string, path: string) => ({
        type: "tool-call" as const,
        toolCallId: id,
        toolName: "readFile",
        input: JSON.stringify({ path }),
      });
      const content =
        step === 0
          ? [{ type: "text" as const, text: "Let me read them." }, read("call_1", "notes.md"), read("call_2", "todo.md")]
          : step === 1
            ? [read("call_1", "changelog.md")]
            : [{ type: "text" as const, text: `Done: I saw ${prompt.length} messages of context.` }];
      const hasCalls = step < 2;
      return { content, finishReason: { unified: hasCalls ? "tool-calls" : "stop", raw: undefined }, usage: usage(prompt), warnings: [] };
    },
  });
}
