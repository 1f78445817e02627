// A Claude tool loop on a ctxkit manager through contextMessages: every request is the manager's view as Anthropic
// takes it (system split out, each tool_use answered right after, cache breakpoints on the unchanged prefix), every
// answer and its usage go back into the manager, and a request rejected as too long is retried on a smaller view.
import Anthropic from "@anthropic-ai/sdk";
import type { Tool, ToolResultBlockParam, ToolUseBlock } from "@anthropic-ai/sdk/resources/messages";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import { mockMessagesFetch } from "./mock-messages.js";

const files: Record<string, string> = { "a.txt": "hello from a", "b.txt": "hello from b" };
const tools: Tool[] = [
  {
    name: "read_file",
    description: "Read a file",
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

function runTool(call: ToolUseBlock): string {
  const input = call.input as { path?: unknown };
  const path = typeof input.path === "string" ? input.path : "";
  return files[path] ?? `no such file: ${path}`;
}

const apiKey = process.env.ANTHROPIC_API_KEY;
const client = apiKey
  ? new Anthropic({ apiKey })
  : new Anthropic({ apiKey: "mock", baseURL: "http://127.0.0.1:9", fetch: mockMessagesFetch() });
const model = apiKey ? "claude-sonnet-4-5" : "mock";
const context = createSimpleContext({ maxTokens: 50_000 });
await context.addMessage({ role: "system", content: "You read files with the read_file tool." });

const claude = contextMessages(client, context);
let response = await claude.create({
  model,
  tools,
  max_tokens: 1024,
  messages: [{ role: "user", content: "What do a.txt and b.txt say?" }],
});
while (response.stop_reason === "tool_use") {
  const results: ToolResultBlockParam[] = response.content.flatMap((block) =>
    block.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: block.id, content: runTool(block) }] : [],
  );
  response = await claude.create({ model, tools, max_tokens: 1024, messages: [{ role: "user", content: results }] });
}
console.log(response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""));
console.log(`history: ${(await context.getMessages()).length} messages`);
