// Single messages: instructions, user turns and assistant text, some pinned, some with extra fields.
import type { ContentPart, Message, MessageMetadata } from "@ctxkit/core";
import fc from "fast-check";
import { messageTextArbitrary } from "./text-arbitrary.js";

/** A pasted document or log: long enough that a manager has to trim it rather than keep it whole. */
function pastedTextArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(messageTextArbitrary({ maxFragments: 4 }), fc.integer({ min: 20_000, max: 40_000 }))
    .map(([line, length]) => `${line}\n${"Pasted document line with some words in it.\n".repeat(Math.ceil(length / 44))}`);
}

/** A string most of the time; sometimes text parts, an image, or a long pasted text. */
export function contentArbitrary(): fc.Arbitrary<string | ContentPart[]> {
  const text = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: messageTextArbitrary(), weight: 30 },
    { arbitrary: pastedTextArbitrary(), weight: 1 },
  );
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: text, weight: 8 },
    { arbitrary: text.map((value): ContentPart[] => [{ type: "text", text: value }]), weight: 1 },
    {
      arbitrary: text.map((value): ContentPart[] => [
        { type: "text", text: value },
        { type: "image_url", image_url: { url: "https://example.com/screenshot.png" } },
      ]),
      weight: 1,
    },
  );
}

/**
 * Metadata as callers send it: usually none, sometimes `pinned`, sometimes a key of the caller's own
 * or the `provenance` the adapters record, which a manager must keep. Never `ctxkit`: that key marks what a manager synthesized.
 */
function metadataArbitrary(): fc.Arbitrary<MessageMetadata | undefined> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: 12 },
    { arbitrary: fc.constant({ pinned: true }), weight: 2 },
    { arbitrary: fc.nat({ max: 999 }).map((turn) => ({ traceId: `trace-${turn}` })), weight: 1 },
    // Who produced a message's provider-native items: a store that loses it sends them where they are refused.
    {
      arbitrary: fc
        .constantFrom({ provider: "anthropic", model: "claude-sonnet-4-6" }, { provider: "openai", model: "gpt-5", account: "key:0a1b" })
        .map((provenance) => ({ provenance: { ...provenance } })),
      weight: 1,
    },
  );
}

/** Adds the optional fields only when present, as a caller would (`exactOptionalPropertyTypes`). */
function withExtras<T extends Message>(message: T, metadata: MessageMetadata | undefined, name: string | undefined): T {
  return {
    ...message,
    ...(name === undefined ? {} : { name }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

const nameArbitrary = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.constant(undefined), weight: 9 },
  { arbitrary: fc.constant("alice"), weight: 1 },
);

/** A system or developer message: the manager must keep it, unaltered, in every view. */
export function instructionArbitrary(): fc.Arbitrary<Message> {
  return fc
    .tuple(fc.constantFrom("system" as const, "developer" as const), contentArbitrary(), metadataArbitrary())
    .map(([role, content, metadata]) => withExtras({ role, content }, metadata, undefined));
}

export function userMessageArbitrary(): fc.Arbitrary<Message> {
  return fc
    .tuple(contentArbitrary(), metadataArbitrary(), nameArbitrary)
    .map(([content, metadata, name]) => withExtras({ role: "user", content }, metadata, name));
}

/**
 * A model's reasoning as providers return it: a `reasoning` part with text (and a signature), a
 * `thinking` part (Anthropic's shape), or a provider-native item with encrypted content. A manager
 * must keep each byte-identical or drop it with its whole unit: providers reject an edited one.
 */
export function reasoningPartArbitrary(): fc.Arbitrary<ContentPart> {
  return fc.oneof(
    messageTextArbitrary({ maxFragments: 4 }).map((text): ContentPart => ({ type: "reasoning", text, signature: "sig_reasoning_01" })),
    messageTextArbitrary({ maxFragments: 4 }).map(
      (thinking): ContentPart => ({ type: "thinking", thinking, signature: "EqQBCkYIARgCKkB" }),
    ),
    fc
      .nat({ max: 0xffff })
      .map((value): ContentPart => ({ type: "reasoning", id: `rs_${value.toString(16)}`, encrypted_content: `gAAAAA${value}==` })),
  );
}

/** Assistant content with reasoning parts before its text, as a reasoning model answers. */
export function reasoningContentArbitrary(): fc.Arbitrary<ContentPart[]> {
  return fc
    .tuple(fc.array(reasoningPartArbitrary(), { minLength: 1, maxLength: 2 }), messageTextArbitrary())
    .map(([reasoning, text]) => [...reasoning, { type: "text", text }]);
}

/** An assistant reply with no tool call; sometimes with reasoning parts. */
export function assistantTextArbitrary(): fc.Arbitrary<Message> {
  const content = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: contentArbitrary(), weight: 5 },
    { arbitrary: reasoningContentArbitrary(), weight: 1 },
  );
  return fc
    .tuple(content, metadataArbitrary())
    .map(([content, metadata]) => withExtras({ role: "assistant", content }, metadata, undefined));
}
