import { portableHistoryArbitrary } from "@ctxkit/conformance";
import { fromModelMessages } from "@ctxkit/ai-sdk";
import { fromAnthropicMessages, toAnthropicMessages } from "@ctxkit/anthropic";
import type { Message } from "@ctxkit/core";
import { textOfContent } from "@ctxkit/core/kit";
import { fromGeminiContents, toGeminiContents } from "@ctxkit/google";
import { fromChatCompletionMessages, toChatCompletionMessages } from "@ctxkit/openai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "./providers.js";

/** A history with a user turn to send: no provider takes a request with nothing in it. */
const hasUserText = (history: readonly Message[]) =>
  history.some((message) => message.role === "user" && textOfContent(message.content).trim() !== "");

const pairs = PROVIDERS.flatMap((source) =>
  PROVIDERS.filter((target) => target !== source && target.check !== undefined).map((target) => [source, target] as const),
);

describe("a history moves between providers", () => {
  it.each(pairs.map(([source, target]) => [source.name, target.name, source, target] as const))(
    "should send what %s's from… gave as a valid %s request",
    (_source, _target, source, target) => {
      fc.assert(
        fc.property(portableHistoryArbitrary({ maxSegments: 6 }).filter(hasUserText), (history) => {
          const moved = source.from(JSON.parse(JSON.stringify(source.to(history))));
          expect(target.check!(target.to(moved))).toEqual([]);
        }),
        { numRuns: 40 },
      );
    },
  );

  const anthropicTurn = [
    { role: "user" as const, content: "Read the config." },
    {
      role: "assistant" as const,
      content: [
        { type: "thinking" as const, thinking: "The config is in config.json.", signature: "c2lnbmF0dXJl" },
        { type: "text" as const, text: "Reading it." },
        { type: "tool_use" as const, id: "toolu_01", name: "read_file", input: { path: "config.json" } },
      ],
    },
    { role: "user" as const, content: [{ type: "tool_result" as const, tool_use_id: "toolu_01", content: "{}", is_error: true }] },
  ];

  it("should keep Anthropic's thinking byte-identical for Anthropic and leave it out, whole, elsewhere", () => {
    const history = fromAnthropicMessages(anthropicTurn);
    expect(toAnthropicMessages(history, { cache: false }).messages[1]!.content[0]).toEqual(anthropicTurn[1]!.content[0]);
    for (const provider of PROVIDERS.filter((provider) => provider.name !== "Anthropic")) {
      const payload = JSON.stringify(provider.to(history));
      expect(payload).not.toContain("thinking");
      expect(payload).not.toContain("c2lnbmF0dXJl");
      if (provider.check !== undefined) expect(provider.check(provider.to(history))).toEqual([]);
    }
  });

  const geminiTurn = [
    { role: "user", parts: [{ text: "Read the config." }] },
    {
      role: "model",
      parts: [
        { text: "The config is in config.json.", thought: true },
        { text: "Reading it." },
        { functionCall: { name: "read_file", args: { path: "config.json" } }, thoughtSignature: "Z2VtaW5pLXNpZ25hdHVyZQ==" },
      ],
    },
    { role: "user", parts: [{ functionResponse: { name: "read_file", response: { error: "ENOENT" } } }] },
  ];

  it("should keep Gemini's thoughts and signatures byte-identical for Gemini and leave them out, whole, elsewhere", () => {
    const history = fromGeminiContents(geminiTurn);
    expect(toGeminiContents(history).contents).toEqual(geminiTurn);
    for (const provider of PROVIDERS.filter((provider) => provider.name !== "Gemini")) {
      const payload = JSON.stringify(provider.to(history));
      expect(payload).not.toContain("config.json.");
      expect(payload).not.toContain("Z2VtaW5pLXNpZ25hdHVyZQ==");
      expect(payload).toContain("gemini-call-0-read_file");
      if (provider.check !== undefined) expect(provider.check(provider.to(history))).toEqual([]);
    }
  });

  it("should map ids Anthropic refuses and give them back, and carry is_error only where a provider has it", () => {
    const chat = fromChatCompletionMessages([
      { role: "user", content: "List files." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "functions.ls:0", type: "function", function: { name: "ls", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "functions.ls:0", content: "a.txt" },
    ]);
    const request = toAnthropicMessages(chat);
    expect(PROVIDERS[1]!.check!(request)).toEqual([]);
    const back = fromAnthropicMessages(request.messages);
    expect(back.flatMap((message) => (message.role === "tool" ? [message.tool_call_id] : []))).toEqual(["functions.ls:0"]);
    expect(toChatCompletionMessages(back)).toMatchObject([
      {},
      { tool_calls: [{ id: "functions.ls:0" }] },
      { tool_call_id: "functions.ls:0" },
    ]);

    const failed = fromAnthropicMessages(anthropicTurn);
    expect(failed.at(-1)).toMatchObject({ role: "tool", is_error: true });
    expect(toChatCompletionMessages(failed).at(-1)).toEqual({ role: "tool", tool_call_id: "toolu_01", content: "{}" });
  });

  // (regression) The AI SDK's content output has no error flag: a failed result given as blocks lost is_error there.
  it("should keep is_error from Anthropic through the AI SDK and back when the result's content is blocks", () => {
    const blocksTurn = [
      ...anthropicTurn.slice(0, 2),
      {
        role: "user" as const,
        content: [
          { type: "tool_result" as const, tool_use_id: "toolu_01", content: [{ type: "text" as const, text: "ENOENT" }], is_error: true },
        ],
      },
    ];
    const aiSdk = PROVIDERS.find((provider) => provider.name === "AI SDK")!;
    const back = aiSdk.from(JSON.parse(JSON.stringify(aiSdk.to(fromAnthropicMessages(blocksTurn)))));
    expect(back.at(-1)).toMatchObject({ role: "tool", tool_call_id: "toolu_01", is_error: true });
    expect(toAnthropicMessages(back, { cache: false }).messages.at(-1)!.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_01", is_error: true }),
    ]);
  });

  it("should leave an AI SDK reasoning part out of an Anthropic request, and keep the rest", () => {
    const history = fromModelMessages([
      { role: "user", content: "Hi" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Say hello." },
          { type: "text", text: "Hello." },
        ],
      },
      { role: "user", content: "Bye" },
    ]);
    const request = toAnthropicMessages(history, { cache: false });
    expect(request.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Hello." }] });
  });

  it("should refuse a view with nothing to send, before any request", () => {
    expect(() =>
      toAnthropicMessages([
        { role: "system", content: "Be brief." },
        { role: "user", content: "" },
      ]),
    ).toThrow(/no user or assistant content/);
  });
});
