// Histories whose thinking, reasoning and compaction items come from several providers, models and accounts: each
// `to…` conversion given a target model sends no item whose recorded provenance the target cannot verify.
import { toModelMessages } from "@ctxkit/ai-sdk";
import { toAnthropicMessages } from "@ctxkit/anthropic";
import type { ContentPart, Message } from "@ctxkit/core";
import type { Provenance } from "@ctxkit/core/kit";
import { toResponseInputItems } from "@ctxkit/openai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const SOURCES: readonly Provenance[] = [
  { provider: "anthropic", model: "claude-sonnet-4-6" },
  { provider: "anthropic", model: "claude-opus-4-1" },
  { provider: "anthropic.messages", model: "claude-sonnet-4-6-20260101" },
  { provider: "openai", model: "gpt-5", account: "key:one" },
  { provider: "openai", model: "gpt-5", account: "key:two" },
  { provider: "openai.responses", model: "gpt-5-mini" },
];

/** A token naming who issued it, so the property can read each sent item's provenance back out of the request. */
const tokenOf = (source: Provenance | undefined, serial: number) =>
  source === undefined ? `tok~none~${serial}` : `tok~${source.provider}~${source.model}~${source.account ?? ""}~${serial}`;

/** The native parts a source's response holds, each carrying its token where the provider puts one. */
function nativeParts(source: Provenance | undefined, serial: number): ContentPart[] {
  const token = tokenOf(source, serial);
  if (source === undefined || source.provider.startsWith("anthropic"))
    return [
      { type: "compaction", content: "The user read a.txt.", encrypted_content: null, signature: token },
      { type: "thinking", thinking: "Read the file next.", signature: token },
      { type: "redacted_thinking", data: token },
      { type: "reasoning", text: "Read the file next.", providerOptions: { anthropic: { signature: token } } },
    ];
  return [
    { type: "reasoning", id: `rs_${serial}`, summary: [], encrypted_content: token },
    { type: "compaction", id: `cmp_${serial}`, encrypted_content: token },
    { type: "reasoning", text: "Read the file next.", providerOptions: { openai: { reasoningEncryptedContent: token } } },
  ];
}

const historyArbitrary = fc
  .array(fc.tuple(fc.option(fc.constantFrom(...SOURCES), { nil: undefined }), fc.subarray([0, 1, 2, 3], { minLength: 1 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((turns): Message[] =>
    turns.flatMap(([source, picks], serial): Message[] => {
      const parts = nativeParts(source, serial);
      const content = [...picks.flatMap((pick) => (parts[pick] === undefined ? [] : [parts[pick]])), { type: "text", text: "Done." }];
      return [
        { role: "user", content: `Question ${serial}` },
        { role: "assistant", content, ...(source === undefined ? {} : { metadata: { provenance: source } }) },
      ];
    }),
  );

const targetArbitrary = fc.record({
  model: fc.constantFrom("claude-sonnet-4-6", "claude-opus-4-1", "gpt-5", "gpt-5-mini"),
  account: fc.option(fc.constantFrom("key:one", "key:two"), { nil: undefined }),
});

/** The tokens a request holds, each as the provenance fields it names (`none` for a history recorded without one). */
function sentTokens(request: unknown): { provider: string; model: string; account: string }[] {
  return [...JSON.stringify(request).matchAll(/tok~([^~"]*)~?([^~"]*)~?([^~"]*)~\d+/g)].map((match) => ({
    provider: match[1]!,
    model: match[2] ?? "",
    account: match[3] ?? "",
  }));
}

const family = (provider: string) => provider.split(".")[0]!;
const withoutDate = (model: string) => model.replace(/-\d{8}$/, "");

function isVerifiable(token: { provider: string; model: string; account: string }, target: Provenance): boolean {
  if (token.provider === "none") return true; // no provenance: sent as before, by type alone
  return (
    family(token.provider) === family(target.provider) &&
    withoutDate(token.model) === withoutDate(target.model) &&
    (token.account === "" || target.account === undefined || token.account === target.account)
  );
}

describe("the provenance policy over histories of mixed provenance", () => {
  it("should send no item whose provenance differs from the target, through every to… conversion", () => {
    fc.assert(
      fc.property(historyArbitrary, targetArbitrary, (history, { model, account }) => {
        const requests: [Provenance, unknown][] = [
          [{ provider: "anthropic", model }, toAnthropicMessages(history, { targetModel: model, cache: false })],
          [
            { provider: "openai", model, ...(account === undefined ? {} : { account }) },
            toResponseInputItems(
              history.map((message) => keepResponsesParts(message)),
              { targetModel: model, ...(account === undefined ? {} : { account }) },
            ),
          ],
          [
            { provider: "anthropic.messages", model },
            toModelMessages(history.map(keepAiSdkParts), { targetModel: { provider: "anthropic.messages", modelId: model } }),
          ],
          [
            { provider: "openai.responses", model },
            toModelMessages(history.map(keepAiSdkParts), { targetModel: { provider: "openai.responses", modelId: model } }),
          ],
        ];
        for (const [target, request] of requests)
          for (const token of sentTokens(request)) expect(isVerifiable(token, target), JSON.stringify({ token, target })).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("should send the target's own items, and every item when no target is given", () => {
    const history: Message[] = [
      { role: "user", content: "Question" },
      {
        role: "assistant",
        content: [...nativeParts(SOURCES[0], 1).slice(1, 2), { type: "text", text: "Done." }],
        metadata: { provenance: SOURCES[0]! },
      },
    ];
    expect(sentTokens(toAnthropicMessages(history, { targetModel: "claude-sonnet-4-6" }))).toHaveLength(1);
    expect(sentTokens(toAnthropicMessages(history, { targetModel: "claude-opus-4-1" }))).toHaveLength(0);
    expect(sentTokens(toAnthropicMessages(history))).toHaveLength(1);
  });
});

/** The Responses API takes no Anthropic block: a history sent there holds only the parts an OpenAI history can. */
function keepResponsesParts(message: Message): Message {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return message;
  return {
    ...message,
    content: message.content.filter(
      (part) =>
        part.type !== "redacted_thinking" &&
        !(part.type === "compaction" && typeof part.encrypted_content !== "string") &&
        !(part.type === "reasoning" && "text" in part),
    ),
  };
}

/** The AI SDK takes only its own reasoning parts among the native ones. */
function keepAiSdkParts(message: Message): Message {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return message;
  return { ...message, content: message.content.filter((part) => part.type === "text" || (part.type === "reasoning" && "text" in part)) };
}
