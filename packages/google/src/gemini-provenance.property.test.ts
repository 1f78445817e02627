// Histories whose thoughts and signatures come from several Gemini models (and some from no recorded one): a request
// to a target model holds no thought or signature another model produced, and every one its own model produced.
import type { ContentPart, Message } from "@ctxkit/core";
import type { Provenance } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geminiProvenance } from "./gemini-provenance.js";
import { toGeminiContents } from "./to-gemini-contents.js";

const MODELS = ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-3-pro-preview"] as const;

/** A token naming the model that issued it, so the property can read each sent part's maker out of the request. */
const tokenOf = (model: string | undefined, serial: number) => `tok~${model ?? "none"}~${serial}`;

function turn(model: string | undefined, serial: number, withCall: boolean): Message[] {
  const token = tokenOf(model, serial);
  const callId = `call-${serial}`;
  const content: ContentPart[] = [
    { type: "gemini_thought", part: { text: `Thinking ${serial}.`, thought: true, thoughtSignature: token } },
    { type: "gemini_thought_signature", thoughtSignature: token },
    { type: "text", text: `Answer ${serial}.` },
    ...(withCall ? [{ type: "gemini_thought_signature", thoughtSignature: token, callId }] : []),
  ];
  const provenance: Provenance | undefined = model === undefined ? undefined : geminiProvenance(model);
  return [
    { role: "user", content: `Question ${serial}` },
    {
      role: "assistant",
      content,
      ...(withCall ? { tool_calls: [{ id: callId, type: "function" as const, function: { name: "read_file", arguments: "{}" } }] } : {}),
      ...(provenance === undefined ? {} : { metadata: { provenance } }),
    },
    ...(withCall ? [{ role: "tool" as const, tool_call_id: callId, content: "ok" }] : []),
  ];
}

const historyArbitrary = fc
  .array(fc.tuple(fc.option(fc.constantFrom(...MODELS), { nil: undefined }), fc.boolean()), { minLength: 1, maxLength: 6 })
  .map((turns) => turns.flatMap(([model, withCall], serial) => turn(model, serial, withCall)));

const sentModels = (request: unknown) => [...JSON.stringify(request).matchAll(/tok~([^~"]+)~\d+/g)].map((match) => match[1]!);

describe("the provenance policy in Gemini requests", () => {
  it("should send every thought and signature of the target's own model or of none, and none of another's", () => {
    fc.assert(
      fc.property(historyArbitrary, fc.constantFrom(...MODELS), fc.boolean(), (history, target, prefixed) => {
        const request = toGeminiContents(history, { targetModel: prefixed ? `models/${target}` : target });
        const sent = sentModels(request);
        for (const model of sent) expect([target, "none"]).toContain(model);
        const own = sentModels(history).filter((model) => model === target || model === "none");
        expect(sent).toEqual(own);
      }),
      { numRuns: 150 },
    );
  });
});
