// A local stand-in for the OpenAI API: records every request body and answers from a script, no network.
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessage } from "openai/resources/chat/completions";

export interface MockOpenAI {
  readonly client: OpenAI;
  readonly requests: ChatCompletionCreateParamsNonStreaming[];
}

/** Answers the n-th request with the n-th message of `replies` (the last one once they run out). */
export function mockOpenAI(replies: readonly ChatCompletionMessage[]): MockOpenAI {
  const requests: ChatCompletionCreateParamsNonStreaming[] = [];
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests.push(JSON.parse(String(init?.body)) as ChatCompletionCreateParamsNonStreaming);
    const message = replies[Math.min(requests.length, replies.length) - 1]!;
    const completion: ChatCompletion = {
      id: `chatcmpl-${requests.length}`,
      object: "chat.completion",
      created: 0,
      model: "gpt-test",
      choices: [{ index: 0, message, finish_reason: message.tool_calls === undefined ? "stop" : "tool_calls", logprobs: null }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
    return new Response(JSON.stringify(completion), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { client: new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 }), requests };
}

export function toolCallReply(id: string, name: string, args: unknown): ChatCompletionMessage {
  return {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
  };
}

export function textReply(text: string): ChatCompletionMessage {
  return { role: "assistant", content: text, refusal: null };
}
