// The Gemini imitation refuses what the Gemini API refuses, with its status and error body, through the real client.
import { createSimpleContext } from "@ctxkit/context-simple";
import { ContextOverflowError } from "@ctxkit/core";
import { contextModels, isContextLengthError } from "@ctxkit/google";
import { ApiError, GoogleGenAI, type Content } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGeminiImitation } from "./gemini-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { questionFor, readFile } from "./scripted-model.js";

const model = "gemini-2.5-flash";
let server: LoopbackServer;
let ai: GoogleGenAI;
beforeAll(async () => {
  server = await startGeminiImitation();
  ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
});
afterAll(() => server.close());

async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error === undefined) throw new Error("the imitation accepted the request");
  return error as ApiError;
}

const user = (text: string): Content => ({ role: "user", parts: [{ text }] });
const call = { functionCall: { name: "read_file", args: { path: "a.txt" } } };
const response = { functionResponse: { name: "read_file", response: { output: "hello" } } };

describe("the Gemini imitation", () => {
  it("should refuse an unknown field, roles that do not alternate and a part with two data fields", async () => {
    const extra = ai.models.generateContent({ model, contents: [user("Hi")], config: { httpOptions: { extraBody: { foo: 1 } } } });
    expect(await rejectionOf(extra)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Unknown name \\"foo\\": Cannot find field/),
    });
    const twice = ai.models.generateContent({ model, contents: [user("Hi"), user("Again")] });
    expect((await rejectionOf(twice)).message).toMatch(/multiturn requests alternate between user and model/);
    const both = ai.models.generateContent({ model, contents: [{ role: "user", parts: [{ text: "Hi", ...response }] }] });
    expect((await rejectionOf(both)).message).toMatch(/oneof field 'data' is already set/);
  });

  it("should refuse a function call with no response after it, and a response with no call before it", async () => {
    const unanswered = ai.models.generateContent({ model, contents: [user("Hi"), { role: "model", parts: [call] }, user("Well?")] });
    expect((await rejectionOf(unanswered)).message).toMatch(
      /number of function response parts is equal to the number of function call parts/,
    );
    const orphan = ai.models.generateContent({
      model,
      contents: [user("Hi"), { role: "model", parts: [{ text: "Ok." }] }, { role: "user", parts: [response] }],
    });
    expect((await rejectionOf(orphan)).message).toMatch(/function response turn comes immediately after a function call turn/);
  });

  it("should refuse its own function call sent back without the thought signature it gave", async () => {
    const first = await ai.models.generateContent({ model, contents: [user(questionFor(1))] });
    const given = first.candidates![0]!.content!;
    expect(given.parts![0]!.thoughtSignature).toEqual(expect.any(String));
    const results: Content = { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "x" } } }] };
    await ai.models.generateContent({ model, contents: [user(questionFor(1)), given, results] });
    const unsigned = { role: "model", parts: given.parts!.map(({ thoughtSignature: _signature, ...part }) => part) };
    const stripped = ai.models.generateContent({ model, contents: [user(questionFor(1)), unsigned, results] });
    expect((await rejectionOf(stripped)).message).toMatch(/Function call is missing a thought_signature in functionCall parts/);
  });

  it("should answer an input over its limit with the Gemini API's 400 INVALID_ARGUMENT and its body", async () => {
    const tooLong = ai.models.generateContent({ model, contents: [user([readFile('{"path":"a"}'), readFile('{"path":"b"}')].join("\n"))] });
    const error = await rejectionOf(tooLong);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(JSON.parse(error.message)).toEqual({
      error: {
        code: 400,
        message: expect.stringMatching(/^The input token count \(\d+\) exceeds the maximum number of tokens allowed \(8192\)\.$/),
        status: "INVALID_ARGUMENT",
      },
    });
    expect(isContextLengthError(error)).toBe(true);
  });

  it("should stop a long loop once recovery is off: the rejections the loop test recovers are real", async () => {
    // The loop test's setting: the manager given the whole window, the model taking 1,024 tokens less.
    const limited = await startGeminiImitation({ ratio: 1.2, window: WINDOW - 1_024 });
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const gemini = contextModels(new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: limited.url } }), context, {
      recoverOverflow: false,
    });
    const failure = (async () => {
      for (let turn = 1; turn <= 40; turn += 1) {
        let answer = await gemini.generateContent({ model, contents: [user(questionFor(turn))] });
        while ((answer.functionCalls?.length ?? 0) > 0) {
          const parts = answer.functionCalls!.map((each) => ({
            functionResponse: { name: each.name ?? "", response: { output: readFile(JSON.stringify(each.args)) } },
          }));
          answer = await gemini.generateContent({ model, contents: [{ role: "user", parts }] });
        }
      }
    })();
    const error = await rejectionOf(failure).finally(() => limited.close());
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error.message).toMatch(/exceeds the maximum number of tokens allowed \(7168\)/);
    expect((error as unknown as ContextOverflowError).cause).toBeInstanceOf(ApiError);
  });
});
