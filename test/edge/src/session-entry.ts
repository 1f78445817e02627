// What the edge test bundles: a short session through core, context-simple, strategy-summary and every adapter.
// It runs inside the edge runtime, so it reports through a global instead of importing anything of the test's.
import { toModelMessages } from "@ctxkit/ai-sdk";
import { toAnthropicMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import { type Message, tiktokenCounter } from "@ctxkit/core";
import o200k_base from "@ctxkit/core/ranks/o200k_base";
import { toGeminiContents } from "@ctxkit/google";
import { toChatCompletionMessages } from "@ctxkit/openai";
import { createSummaryStrategy } from "@ctxkit/strategy-summary";

export interface EdgeSessionReport {
  readonly historyLength: number;
  readonly viewLength: number;
  readonly viewTokens: number;
  readonly compactions: number;
  readonly hasSummary: boolean;
  readonly hasToolPair: boolean;
  readonly adapterLengths: { readonly aiSdk: number; readonly anthropic: number; readonly google: number; readonly openai: number };
}

async function runSession(): Promise<EdgeSessionReport> {
  let compactions = 0;
  // The exact counter, its table passed in: an edge runtime has no file to load it from.
  const counter = tiktokenCounter({ ranks: o200k_base });
  const manager = createSimpleContext({
    maxTokens: 1_200,
    tokenizer: counter,
    strategies: [createSummaryStrategy({ keepRecentTokens: 200 }), "truncate"],
    onEvent: (event) => {
      if (event === "context:post_compact") compactions += 1;
    },
  });
  await manager.addMessage({ role: "system", content: "You are a careful coding agent." });
  for (let turn = 0; turn < 8; turn++) {
    const id = `call_${turn}`;
    await manager.addMessage({
      role: "user",
      content: `Step ${turn}: read src/module-${turn}.ts and explain what it exports. ${"Details. ".repeat(30)}`,
    });
    await manager.addMessage({
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/module-${turn}.ts` }) } }],
    });
    await manager.addMessage({ role: "tool", tool_call_id: id, content: `export const value${turn} = ${turn};\n`.repeat(20) });
    await manager.addMessage({ role: "assistant", content: `Module ${turn} exports value${turn}.` });
  }
  await manager.addMessage({ role: "user", content: "Which modules export a value?" });
  const view: Message[] = await manager.getMessagesForRequest();
  const history = await manager.getMessages();
  const viewTokens = view.reduce((total, message) => total + counter.count(JSON.stringify(message.content ?? "")), 0);
  return {
    historyLength: history.length,
    viewLength: view.length,
    viewTokens,
    compactions,
    hasSummary: view.some((message) => typeof message.content === "string" && message.content.includes("<summary>")),
    hasToolPair: view.some((message) => message.role === "tool"),
    adapterLengths: {
      aiSdk: toModelMessages(view).messages.length,
      anthropic: toAnthropicMessages(view).messages.length,
      google: toGeminiContents(view).contents.length,
      openai: toChatCompletionMessages(view).length,
    },
  };
}

(globalThis as { edgeSession?: Promise<EdgeSessionReport> }).edgeSession = runSession();
