// One request of a tool session through a loop wrapper, whichever provider: so a session can change model or provider
// between any two requests.
import type { ContextMessages } from "@ctxkit/anthropic";
import type { ContextResponses } from "@ctxkit/openai";
import type { MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

export interface ToolCallMade {
  id: string;
  arguments: string;
}

/** Sends the user's next question, or the results of the calls of the previous answer; resolves to the new calls. */
export type SessionStep = (input: { question: string } | { results: { id: string; output: string }[] }) => Promise<ToolCallMade[]>;

const schema = { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] };
const anthropicTools: Tool[] = [{ name: "read_file", description: READ_FILE_DESCRIPTION, input_schema: schema }];
const responsesTools: FunctionTool[] = [
  {
    type: "function",
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parameters: { ...schema, additionalProperties: false },
    strict: true,
  },
];

/** A Messages request with thinking on, streamed or not. */
export function anthropicStep(claude: ContextMessages, model: string, stream = false): SessionStep {
  return async (input) => {
    const messages: MessageParam[] =
      "question" in input
        ? [{ role: "user", content: input.question }]
        : [
            {
              role: "user",
              content: input.results.map((result) => ({ type: "tool_result", tool_use_id: result.id, content: result.output })),
            },
          ];
    const params = {
      model,
      tools: anthropicTools,
      thinking: { type: "enabled" as const, budget_tokens: 1_024 },
      max_tokens: 2_048,
      messages,
    };
    const response = stream ? await (await claude.create({ ...params, stream: true })).finalResponse() : await claude.create(params);
    return response.content.flatMap((block) =>
      block.type === "tool_use" ? [{ id: block.id, arguments: JSON.stringify(block.input) }] : [],
    );
  };
}

/** A Responses request with reasoning on and its encrypted content kept (`store: false`), streamed or not. */
export function responsesStep(responses: ContextResponses, model: string, stream = false): SessionStep {
  return async (input) => {
    const items: string | ResponseInputItem[] =
      "question" in input
        ? input.question
        : input.results.map((result) => ({ type: "function_call_output" as const, call_id: result.id, output: result.output }));
    const params = {
      model,
      tools: responsesTools,
      store: false,
      max_output_tokens: 1_024,
      reasoning: { effort: "low" as const },
      include: ["reasoning.encrypted_content" as const],
      input: items,
    };
    const response = stream ? await (await responses.create({ ...params, stream: true })).finalResponse() : await responses.create(params);
    return response.output.flatMap((item) => (item.type === "function_call" ? [{ id: item.call_id, arguments: item.arguments }] : []));
  };
}

/** Runs `requests` requests of the scripted tool session, each through the step `stepFor(request)` gives (request 0 first). */
export async function runSession(stepFor: (request: number) => SessionStep, requests: number, firstTurn = 1): Promise<void> {
  let calls: ToolCallMade[] = [];
  let turn = firstTurn - 1;
  for (let request = 0; request < requests; request += 1) {
    const step = stepFor(request);
    if (calls.length > 0) calls = await step({ results: calls.map((call) => ({ id: call.id, output: readFile(call.arguments) })) });
    else {
      turn += 1;
      calls = await step({ question: questionFor(turn) });
    }
  }
}
