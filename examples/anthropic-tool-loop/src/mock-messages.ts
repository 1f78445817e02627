// The model when no ANTHROPIC_API_KEY is set: a local fetch that answers like the Messages API, no network.
import type { ContentBlock, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";

/** Reads two files with tools, then answers. Records each request body. */
export function mockMessagesFetch(
  requests: MessageCreateParamsNonStreaming[] = [],
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as MessageCreateParamsNonStreaming;
    requests.push(body);
    const step = requests.length;
    const content: ContentBlock[] =
      step <= 2
        ? [
            {
              type: "tool_use",
              id: `toolu_${step}`,
              name: "read_file",
              input: { path: step === 1 ? "a.txt" : "b.txt" },
              caller: { type: "direct" },
            },
          ]
        : [{ type: "text", text: "a.txt and b.txt both greet the reader.", citations: null }];
    const stopReason = step <= 2 ? "tool_use" : "end_turn";
    const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    return new Response(
      JSON.stringify({
        id: `msg_${step}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
      {
        status: 200,
        headers: { "content-type": "application/json" },
      },
    );
  };
}
