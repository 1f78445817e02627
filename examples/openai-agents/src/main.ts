// An agent whose memory is a CtxkitSession: each turn the model gets the session's view (fitting the budget,
// tool pairs whole) and everything the turn produced goes back into the session, whose history stays whole.
// `run` below is the part of OpenAI Agents JS's runner that talks to a session; with `@openai/agents`
// (Node 22) pass the same session to its `run(agent, input, { session })` instead.
import { createSimpleContext } from "@ctxkit/context-simple";
import { CtxkitSession, fromAgentInputItems, fromResponseInputItems, toAgentInputItems, toResponseInputItems } from "@ctxkit/openai";
import OpenAI from "openai";
import { mockResponsesFetch } from "./mock-responses.js";

const tools = { get_weather: (args: { city: string }) => `18°C and clear in ${args.city}` };

export async function run(client: OpenAI, session: CtxkitSession, question: string, model: string): Promise<string> {
  await session.addItems([{ role: "user", content: question }]);
  for (let turn = 0; turn < 8; turn += 1) {
    const input = toResponseInputItems(fromAgentInputItems(await session.getItems()));
    const response = await client.responses.create({ model, instructions: "Answer with the weather tool.", input, tools: [weatherTool] });
    const produced = toAgentInputItems(fromResponseInputItems(response.output));
    const calls = produced.filter((item) => item.type === "function_call");
    const results = calls.map((call) => ({
      type: "function_call_result" as const,
      callId: call.callId,
      name: call.name,
      status: "completed" as const,
      output: tools.get_weather(JSON.parse(call.arguments) as { city: string }),
    }));
    await session.addItems([...produced, ...results]);
    if (calls.length === 0) return response.output_text;
  }
  throw new Error("the agent did not finish in 8 turns");
}

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  strict: true,
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
};

const apiKey = process.env.OPENAI_API_KEY;
const client = apiKey
  ? new OpenAI({ apiKey })
  : new OpenAI({ apiKey: "mock", baseURL: "http://127.0.0.1:9/v1", fetch: mockResponsesFetch() });
const session = new CtxkitSession({ manager: createSimpleContext({ maxTokens: 8_000 }), sessionId: "weather-demo" });
const answer = await run(client, session, "What is the weather in Paris?", apiKey ? "gpt-4.1-mini" : "mock");
console.log(answer);
console.log(`session ${await session.getSessionId()}: ${(await session.getItems()).length} items in view`);
