// Type-level checks, run by `tsc` (pnpm typecheck) as much as by vitest: a regression fails to compile.
import type { ContextManager, Message } from "@ctxkit/core";
import type {
  ChatCompletionDeveloperMessageParam,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionSystemMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from "openai/resources/chat/completions";
import { describe, expectTypeOf, it } from "vitest";
import { fromChatCompletionMessage } from "./from-chat-completion-messages.js";
import { toChatCompletionMessages } from "./to-chat-completion-messages.js";

describe("types against the openai SDK", () => {
  it("should take the SDK's system, developer, user and tool params as ctxkit messages without a cast (regression)", () => {
    expectTypeOf<ChatCompletionSystemMessageParam>().toExtend<Message>();
    expectTypeOf<ChatCompletionDeveloperMessageParam>().toExtend<Message>();
    expectTypeOf<ChatCompletionUserMessageParam>().toExtend<Message>();
    expectTypeOf<ChatCompletionToolMessageParam>().toExtend<Message>();
    expectTypeOf<ChatCompletionUserMessageParam>().toExtend<Parameters<ContextManager["addMessage"]>[0]>();
  });

  it("should give a view as ChatCompletionMessageParam[] and take any param or response message back", () => {
    expectTypeOf(toChatCompletionMessages).returns.toEqualTypeOf<ChatCompletionMessageParam[]>();
    expectTypeOf(fromChatCompletionMessage).parameter(0).toEqualTypeOf<ChatCompletionMessageParam | ChatCompletionMessage>();
    expectTypeOf(fromChatCompletionMessage).returns.toEqualTypeOf<Message>();
  });

  it("should assign the parts of a user message the SDK builds", () => {
    const user: ChatCompletionUserMessageParam = {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAA", detail: "low" } },
        { type: "input_audio", input_audio: { data: "AAA", format: "wav" } },
        { type: "file", file: { file_id: "file-1" } },
      ],
    };
    expectTypeOf(user).toExtend<Message>();
  });
});
