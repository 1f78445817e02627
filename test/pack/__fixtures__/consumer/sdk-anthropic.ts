// The Anthropic SDK's tool loop against the installed tarballs, with a local fetch standing in for the API.
import Anthropic from "@anthropic-ai/sdk";
import { fromAnthropicMessages, toAnthropicMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";

type Block = { type: string; id?: string; tool_use_id?: string };
const requests: { messages: { role: string; content: string | Block[] }[] }[] = [];
// Asks for a tool on every other call, answers on the others.
const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
  requests.push(JSON.parse(String(init?.body)) as (typeof requests)[number]);
  const call = requests.length % 2 === 1;
  const content = call
    ? [{ type: "tool_use", id: `toolu_${requests.length}`, name: "read_file", input: {} }]
    : [{ type: "text", text: `Done ${requests.length}.`, citations: null }];
  const message = {
    id: "m",
    type: "message",
    role: "assistant",
    model: "mock",
    content,
    stop_reason: call ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  return new Response(JSON.stringify(message), { headers: { "content-type": "application/json" } });
};

/** Anthropic's rule: every tool_use is answered by a tool_result in the next user message. */
function unanswered(messages: (typeof requests)[number]["messages"]): number {
  let missing = 0;
  messages.forEach((message, index) => {
    if (message.role !== "assistant" || typeof message.content === "string") return;
    const next = messages[index + 1]?.content;
    const answered = new Set(typeof next === "string" || next === undefined ? [] : next.map((block) => block.tool_use_id));
    missing += message.content.filter((block) => block.type === "tool_use" && !answered.has(block.id)).length;
  });
  return missing;
}

const client = new Anthropic({ apiKey: "mock", fetch });
const context = createSimpleContext({ maxTokens: 1_500 });
await context.addMessage({ role: "system", content: "You are a careful agent." });
for (let turn = 0; turn < 12; turn += 1) {
  await context.addMessage({ role: "user", content: `Task ${turn}: read the file.` });
  for (let step = 0; step < 2; step += 1) {
    const response = await client.messages.create({
      model: "mock",
      max_tokens: 256,
      ...toAnthropicMessages(await context.getMessagesForRequest()),
    });
    for (const message of fromAnthropicMessages([response])) await context.addMessage(message);
    for (const block of response.content)
      if (block.type === "tool_use") await context.addMessage({ role: "tool", tool_call_id: block.id, content: "x ".repeat(300) });
  }
}
console.log(
  JSON.stringify({
    requests: requests.length,
    historyLength: (await context.getMessages()).length,
    largestRequest: Math.max(...requests.map((request) => request.messages.length)),
    unansweredToolUses: requests.reduce((total, request) => total + unanswered(request.messages), 0),
  }),
);
