// Gemini contents through ctxkit and back are the same contents: thoughts, signatures, images, calls with and
// without ids, and every shape of function response.
import type { Content, Part } from "@google/genai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromGeminiContents } from "./from-gemini-contents.js";
import { toGeminiContents } from "./to-gemini-contents.js";

const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,?!é]{0,20}$/);
const signature = fc.base64String({ minLength: 4, maxLength: 24 });
const name = fc.constantFrom("read_file", "grep", "run_tests");

const signed = (part: Part, thoughtSignature: string | null): Part => (thoughtSignature === null ? part : { ...part, thoughtSignature });

const contentPart: fc.Arbitrary<Part> = fc.oneof(
  fc.tuple(text, fc.option(signature)).map(([value, sig]) => signed({ text: value }, sig)),
  fc.constant<Part>({ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }),
  fc.constant<Part>({ fileData: { mimeType: "image/webp", fileUri: "https://example.com/shot.webp" } }),
  // No ctxkit form: kept whole.
  fc.constant<Part>({ fileData: { mimeType: "application/pdf", fileUri: "https://example.com/spec.pdf" } }),
  fc.constant<Part>({ executableCode: { language: "PYTHON" as never, code: "print(1)" } }),
);
const thought = fc.tuple(text, fc.option(signature)).map(([value, sig]) => signed({ text: value, thought: true }, sig));

interface Call {
  name: string;
  id?: string;
  args: Record<string, unknown>;
}
const callsArbitrary = fc
  .tuple(fc.array(name, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.dictionary(text, text, { maxKeys: 2 }))
  .map(([names, withIds, args]): Call[] =>
    names.map((callName, index) => ({ name: callName, ...(withIds ? { id: `call-${index}` } : {}), args })),
  );
const response: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  text.map((output) => ({ output })),
  text.map((error) => ({ error })),
  fc.record({ matches: fc.array(text, { maxLength: 2 }), count: fc.nat() }),
);

const modelTurn = fc
  .record({
    thoughts: fc.array(thought, { maxLength: 2 }),
    parts: fc.array(contentPart, { maxLength: 2 }),
    calls: fc.option(callsArbitrary),
    callSignature: fc.option(signature),
  })
  .filter(({ thoughts, parts, calls }) => thoughts.length + parts.length + (calls?.length ?? 0) > 0);

const conversation = fc
  .record({
    opening: fc.array(contentPart, { minLength: 1, maxLength: 2 }),
    turns: fc.array(
      fc.record({
        model: modelTurn,
        after: fc.array(contentPart, { maxLength: 2 }),
        responses: fc.array(response, { minLength: 3, maxLength: 3 }),
      }),
      {
        maxLength: 4,
      },
    ),
    system: fc.option(fc.array(text, { minLength: 1, maxLength: 2 })),
  })
  .map(({ opening, turns, system }) => {
    const contents: Content[] = [{ role: "user", parts: opening }];
    for (const [index, turn] of turns.entries()) {
      const calls = turn.model.calls ?? [];
      const callParts = calls.map((call, position): Part => {
        const part: Part = { functionCall: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, args: call.args } };
        return position === 0 ? signed(part, turn.model.callSignature) : part;
      });
      contents.push({ role: "model", parts: [...turn.model.thoughts, ...turn.model.parts, ...callParts] });
      const responses = calls.map(
        (call, position): Part => ({
          functionResponse: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, response: turn.responses[position]! },
        }),
      );
      const after = [...responses, ...turn.after];
      const isLast = index === turns.length - 1;
      if (after.length > 0) contents.push({ role: "user", parts: after });
      else if (!isLast) contents.push({ role: "user", parts: [{ text: "Go on." }] });
    }
    return { contents, ...(system === null ? {} : { systemInstruction: { parts: system.map((value) => ({ text: value })) } }) };
  });

describe("Gemini contents through ctxkit and back", () => {
  it("should give back the same contents and system instruction", () => {
    fc.assert(
      fc.property(conversation, (request) => {
        const messages = fromGeminiContents(
          request.contents,
          request.systemInstruction === undefined ? {} : { systemInstruction: request.systemInstruction },
        );
        expect(toGeminiContents(JSON.parse(JSON.stringify(messages)))).toEqual(request);
      }),
      { numRuns: 200 },
    );
  });
});
