// A Responses tool loop on a ctxkit manager through contextResponses: each request is the manager's view (fitting the
// budget, tool pairs whole), each output and its usage go back into the manager. The same manager is then an OpenAI
// Agents JS session (`CtxkitSession`): with `@openai/agents` (Node 22) pass it to `run(agent, input, { session })`.
import { createSimpleContext } from "@ctxkit/context-simple";
import { contextResponses, CtxkitSession } from "@ctxkit/openai";
import OpenAI from "openai";
import type { FunctionTool } from "openai/resources/responses/responses";
import { mockResponsesFetch } from "./mock-responses.js";

const getWeather = (args: { city: string }) => `18°C and clear in ${args.city}`;
const tools: FunctionTool[] = [
  {
    type: "function",
    name: "get_weather",
    strict: true,
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  },
];

const apiKey = process.env.OPENAI_API_KEY;
const client = apiKey
  ? new OpenAI({ apiKey })
  : new OpenAI({ apiKey: "mock", baseURL: "http://127.0.0.1:9/v1", fetch: mockResponsesFetch() });
const model = apiKey ? "gpt-4.1-mini" : "mock";
const context = createSimpleContext({ maxTokens: 8_000 });

const responses = contextResponses(client, context);
const params = { model, tools, instructions: "Answer with the weather tool." };
let response = await responses.create({ ...params, input: "What is the weather in Paris?" });
for (;;) {
  const calls = response.output.filter((item) => item.type === "function_call");
  if (calls.length === 0) break;
  const outputs = calls.map((call) => ({
    type: "function_call_output" as const,
    call_id: call.call_id,
    output: getWeather(JSON.parse(call.arguments) as { city: string }),
  }));
  response = await responses.create({ ...params, input: outputs });
}
console.log(response.output_text);

const session = new CtxkitSession({ manager: context, sessionId: "weather-demo" });
console.log(`session ${await session.getSessionId()}: ${(await session.getItems()).length} items in view`);
