import { checkGeminiRequest, replyTo, type ScriptedReply } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import type { Message } from "@ctxkit/core";
import { textOfContent } from "@ctxkit/core/kit";
import { ApiError, GenerateContentResponse, type GenerateContentParameters, type GoogleGenAI } from "@google/genai";
import { fromGeminiContents } from "./from-gemini-contents.js";
import { contextModels } from "./loop/context-models.js";
import { DEFAULT_OPENING_USER_TEXT, toGeminiContents, type GeminiRequest } from "./to-gemini-contents.js";

const isSent = (message: Message) =>
  message.role !== "system" &&
  message.role !== "developer" &&
  ((message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0) ||
    message.role === "tool" ||
    textOfContent(message.content).trim() !== "" ||
    (Array.isArray(message.content) && message.content.some((part) => part.type !== "text" && part.type !== "refusal")));

const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** A Gemini client that holds each request to the kit's rules and answers as the loop checks script it. */
function scriptedClient(scripted: ScriptedReply): Pick<GoogleGenAI, "models"> {
  const generateContent = async (params: GenerateContentParameters) => {
    const instruction = params.config?.systemInstruction;
    const request = {
      ...(instruction === undefined ? {} : { systemInstruction: instruction }),
      contents: params.contents,
    } as GeminiRequest;
    const problems = checkGeminiRequest(request);
    if (problems.length > 0) throw new ApiError({ status: 400, message: JSON.stringify({ error: { code: 400, message: problems[0] } }) });
    const reply = replyTo(scripted, request.contents);
    if (reply.kind === "too-long")
      throw new ApiError({
        status: 400,
        message: JSON.stringify({
          error: {
            code: 400,
            message: "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
            status: "INVALID_ARGUMENT",
          },
        }),
      });
    const { usage } = reply;
    return Object.assign(new GenerateContentResponse(), {
      candidates: [{ content: { role: "model", parts: [{ text: reply.text }] }, finishReason: "STOP", index: 0 }],
      modelVersion: "gemini-2.5-flash",
      ...(usage === null
        ? {}
        : {
            usageMetadata: defined({
              promptTokenCount: usage.input,
              cachedContentTokenCount: usage.cacheRead,
              candidatesTokenCount: usage.output,
            }),
          }),
    });
  };
  return { models: { generateContent } } as unknown as Pick<GoogleGenAI, "models">;
}

describeAdapter<GeminiRequest>("@ctxkit/google", {
  name: "google",
  toProvider: (messages) => toGeminiContents(messages),
  // The suite also passes junk in place of a request, hence `?.`.
  fromProvider: (request) =>
    fromGeminiContents(request?.contents, request?.systemInstruction === undefined ? {} : { systemInstruction: request.systemInstruction }),
  validate: checkGeminiRequest,
  // Documented: a request that would open with the model opens with a user text instead.
  normalize: (messages) =>
    messages.find(isSent)?.role === "assistant" ? [{ role: "user", content: DEFAULT_OPENING_USER_TEXT }, ...messages] : messages,
  keepsToolErrors: true,
  // contextModels takes only what is new since the last call: the manager holds the rest.
  loop: {
    inputs: ["new"],
    repliesPerRequest: true,
    call: (manager, input, reply) =>
      contextModels(scriptedClient(reply), manager).generateContent({
        model: "gemini-2.5-flash",
        contents: toGeminiContents([...input]).contents,
      }),
  },
});
