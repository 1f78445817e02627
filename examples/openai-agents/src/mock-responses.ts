// The model when no OPENAI_API_KEY is set: a local fetch that answers like the Responses API, no network.
import type { Response as ModelResponse, ResponseCreateParamsNonStreaming, ResponseOutputItem } from "openai/resources/responses/responses";

/** Calls `get_weather` until a result is in the input, then answers with it. Records each request body. */
export function mockResponsesFetch(
  requests: ResponseCreateParamsNonStreaming[] = [],
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as ResponseCreateParamsNonStreaming;
    requests.push(body);
    const items = Array.isArray(body.input) ? body.input : [];
    const result = items.findLast((item) => item.type === "function_call_output");
    const output: ResponseOutputItem[] =
      result === undefined
        ? [
            {
              type: "function_call",
              id: `fc_${requests.length}`,
              call_id: `call_${requests.length}`,
              name: "get_weather",
              arguments: '{"city":"Paris"}',
              status: "completed",
            },
          ]
        : [
            {
              type: "message",
              id: `msg_${requests.length}`,
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: `The tool says: ${String(result.output)}`, annotations: [] }],
            },
          ];
    const response: Partial<ModelResponse> = {
      id: `resp_${requests.length}`,
      object: "response",
      created_at: 0,
      model: body.model ?? "mock",
      status: "completed",
      output,
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 120,
      },
    };
    return new Response(JSON.stringify(response), { status: 200, headers: { "content-type": "application/json" } });
  };
}
