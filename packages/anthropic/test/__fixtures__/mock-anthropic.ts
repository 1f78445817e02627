// A local stand-in for the Anthropic API: records every request body and answers from a script, no network.
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";

export interface MockAnthropic {
  readonly client: Anthropic;
  readonly requests: MessageCreateParamsNonStreaming[];
}

/** Answers the n-th request with the n-th content of `replies` (the last one once they run out). */
export function mockAnthropic(replies: readonly ContentBlock[][]): MockAnthropic {
  const requests: MessageCreateParamsNonStreaming[] = [];
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests.push(JSON.parse(String(init?.body)) as MessageCreateParamsNonStreaming);
    const content = replies[Math.min(requests.length, replies.length) - 1]!;
    const body = {
      id: `msg_${requests.length}`,
      type: "message",
      role: "assistant",
      model: "claude-test",
      content,
      stop_reason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { client: new Anthropic({ apiKey: "test-key", baseURL: "http://127.0.0.1:9", fetch, maxRetries: 0 }), requests };
}

export function toolUseBlock(id: string, name: string, input: Record<string, unknown>): ContentBlock {
  return { type: "tool_use", id, name, input, caller: { type: "direct" } };
}

export function textBlock(text: string): ContentBlock {
  return { type: "text", text, citations: null };
}
