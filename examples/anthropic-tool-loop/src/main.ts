// A Claude tool loop on a ctxkit manager: every request is the manager's view as Anthropic takes it
// (system split out, each tool_use answered right after, cache breakpoints on the unchanged prefix).
import Anthropic from "@anthropic-ai/sdk";
import { fromAnthropicMessages, toAnthropicMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { mockMessagesFetch } from "./mock-messages.js";

const files: Record<string, string> = { "a.txt": "hello from a", "b.txt": "hello from b" };
const readFile = {
  name: "read_file",
  description: "Read a file",
  input_schema: { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] },
};

const apiKey = process.env.ANTHROPIC_API_KEY;
const client = apiKey
  ? new Anthropic({ apiKey })
  : new Anthropic({ apiKey: "mock", baseURL: "http://127.0.0.1:9", fetch: mockMessagesFetch() });
const context = createSimpleContext({ maxTokens: 50_000 });
await context.addMessage({ role: "system", content: "You read files with the read_file tool." });
await context.addMessage({ role: "user", content: "What do a.txt and b.txt say?" });

let previous: Message[] | undefined;
for (let turn = 0; turn < 8; turn += 1) {
  const view = await context.getMessagesForRequest();
  const { system, messages } = toAnthropicMessages(view, previous === undefined ? {} : { previous });
  previous = view;
  const response = await client.messages.create({
    model: apiKey ? "claude-sonnet-4-5" : "mock",
    max_tokens: 1024,
    tools: [readFile],
    ...(system ? { system } : {}),
    messages,
  });
  for (const message of fromAnthropicMessages([response])) await context.addMessage(message);
  const uses = response.content.filter((block) => block.type === "tool_use");
  if (uses.length === 0) {
    console.log(response.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
    break;
  }
  for (const use of uses) {
    const path =
      typeof use.input === "object" && use.input !== null && "path" in use.input && typeof use.input.path === "string"
        ? use.input.path
        : "";
    await context.addMessage({ role: "tool", tool_call_id: use.id, content: files[path] ?? `no such file: ${path}` });
  }
}
console.log(`history: ${(await context.getMessages()).length} messages`);
