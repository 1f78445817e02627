// A Gemini session that changes model in the middle of a tool turn, with the real client against the imitation, which
// binds each thought signature to the model that gave it and asks, as Gemini 3 does, for a signature on the first
// function call of each step of the current turn.
import { createSimpleContext } from "@ctxkit/context-simple";
import { contextModels, fromGeminiContents, toGeminiContents } from "@ctxkit/google";
import { createPartFromFunctionResponse, GoogleGenAI, type Content, type GenerateContentResponse } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGeminiImitation } from "./gemini-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { WINDOW } from "./provider-tokens.js";
import { questionFor, readFile } from "./scripted-model.js";

const config = { thinkingConfig: { includeThoughts: true } };
let server: LoopbackServer;
let ai: GoogleGenAI;
beforeAll(async () => {
  server = await startGeminiImitation();
  ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
});
afterAll(() => server.close());

const resultsOf = (response: GenerateContentResponse): Content[] => [
  {
    role: "user",
    parts: (response.functionCalls ?? []).map((call) =>
      createPartFromFunctionResponse(call.id ?? "", call.name ?? "", { output: readFile(JSON.stringify(call.args)) }),
    ),
  },
];

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error === undefined) throw new Error("the imitation accepted the request");
  return error as Error;
}

describe("a Gemini session that changes model mid-turn", () => {
  it("should leave the other model's signatures out and sign its calls with the placeholder, then send a model its own again", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    const gemini = contextModels(ai, context);
    const first = await gemini.generateContent({
      model: "gemini-2.5-flash",
      config,
      contents: [{ role: "user", parts: [{ text: questionFor(1) }] }],
    });
    expect(first.functionCalls).toHaveLength(1);
    const before = server.requests.length;
    const answer = await gemini.generateContent({ model: "gemini-3-pro-preview", config, contents: resultsOf(first) });
    expect(answer.text).toMatch(/^Turn 1:/);
    const sent = server.requests[before]!.body["contents"] as Content[];
    expect(sent[1]!.parts).toEqual([
      { functionCall: { name: "read_file", args: { path: "turn-1-file-0.txt" } }, thoughtSignature: "skip_thought_signature_validator" },
    ]);
    // Back to the first model: its own thoughts and signatures go with the request again, and it accepts them.
    const next = await gemini.generateContent({
      model: "gemini-2.5-flash",
      config,
      contents: [{ role: "user", parts: [{ text: questionFor(2) }] }],
    });
    expect(next.functionCalls).toHaveLength(1);
    expect(JSON.stringify(server.requests.at(-1)!.body["contents"])).toMatch(/"thought":true/);
  });

  it("should be refused with checkProvenance off: the first model's signature is corrupt to the second", async () => {
    const gemini = contextModels(ai, createSimpleContext({ maxTokens: WINDOW }), { checkProvenance: false });
    const first = await gemini.generateContent({
      model: "gemini-2.5-flash",
      config,
      contents: [{ role: "user", parts: [{ text: questionFor(1) }] }],
    });
    const error = await rejectionOf(gemini.generateContent({ model: "gemini-3-pro-preview", config, contents: resultsOf(first) }));
    expect(error.message).toMatch(/Corrupted thought signature/);
  });

  it("should be refused when the calls go unsigned: the placeholder is what lets the second model take them", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    const gemini = contextModels(ai, context);
    const first = await gemini.generateContent({
      model: "gemini-2.5-flash",
      config,
      contents: [{ role: "user", parts: [{ text: questionFor(1) }] }],
    });
    for (const message of fromGeminiContents(resultsOf(first))) await context.addMessage(message);
    const { contents } = toGeminiContents(await context.getMessagesForRequest(), { targetModel: "gemini-3-pro-preview" });
    const error = await rejectionOf(ai.models.generateContent({ model: "gemini-3-pro-preview", contents }));
    expect(error.message).toMatch(/Function call is missing a thought_signature in functionCall parts/);
  });
});
