// The OpenAI SDK's tool loop against the installed tarballs, with a local fetch standing in for the API.
import { createSimpleContext } from "@ctxkit/context-simple";
import { checkToolPairs } from "@ctxkit/core/kit";
import { fromChatCompletionMessage, toChatCompletionMessages } from "@ctxkit/openai";
import OpenAI from "openai";

const requests: { messages: { role: string; metadata?: unknown }[] }[] = [];
// Asks for a tool on every other call, answers on the others.
const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
  const body = JSON.parse(String(init?.body)) as (typeof requests)[number];
  requests.push(body);
  const call = requests.length % 2 === 1;
  const message = call
    ? {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `call_${requests.length}`, type: "function", function: { name: "read_file", arguments: "{}" } }],
      }
    : { role: "assistant", content: `Done ${requests.length}.` };
  const completion = {
    id: "c",
    object: "chat.completion",
    created: 0,
    model: "mock",
    choices: [{ index: 0, message, finish_reason: call ? "tool_calls" : "stop", logprobs: null }],
  };
  return new Response(JSON.stringify(completion), { headers: { "content-type": "application/json" } });
};

const client = new OpenAI({ apiKey: "mock", fetch });
const context = createSimpleContext({ maxTokens: 1_500 });
await context.addMessage({ role: "system", content: "You are a careful agent.", metadata: { pinned: true } });
for (let turn = 0; turn < 12; turn += 1) {
  await context.addMessage({ role: "user", content: `Task ${turn}: read the file.` });
  for (let step = 0; step < 2; step += 1) {
    const messages = toChatCompletionMessages(await context.getMessagesForRequest());
    const completion = await client.chat.completions.create({ model: "mock", messages });
    const reply = completion.choices[0]!.message;
    await context.addMessage(fromChatCompletionMessage(reply));
    for (const call of reply.tool_calls ?? []) await context.addMessage({ role: "tool", tool_call_id: call.id, content: "x ".repeat(300) });
  }
}
const sent = requests.map((request) => request.messages as never);
console.log(
  JSON.stringify({
    requests: requests.length,
    historyLength: (await context.getMessages()).length,
    largestRequest: Math.max(...requests.map((request) => request.messages.length)),
    pairProblems: sent.reduce((total, messages) => total + checkToolPairs(messages).length, 0),
    metadataSent: requests.some((request) => request.messages.some((message) => "metadata" in message)),
  }),
);
