import { createContextManager, MemoryMessageStore } from "@ctxkit/core";
import type { GenerateContentParameters, GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { describe, expect, it, vi } from "vitest";
import { contextModels } from "./context-models.js";

/** A client that records each request and answers with `candidates` (none: a blocked prompt). */
function recordingClient(answer: Record<string, unknown>) {
  const requests: GenerateContentParameters[] = [];
  const generateContent = async (params: GenerateContentParameters) => {
    // A signal cannot be cloned; the rest is what was sent.
    const { abortSignal: _signal, ...config } = params.config ?? {};
    requests.push(structuredClone({ ...params, config }));
    return answer as unknown as GenerateContentResponse;
  };
  return { requests, ai: { models: { generateContent } } as unknown as Pick<GoogleGenAI, "models"> };
}

const manager = () => createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate", maxTokens: 16_384 });

describe("contextModels", () => {
  it("should send the caller's system instruction before the view's own, and store neither it nor anything but the turn", async () => {
    const context = await manager();
    await context.addMessage({ role: "system", content: "Answer in French." });
    const answer = { candidates: [{ content: { role: "model", parts: [{ text: "Bonjour." }] }, finishReason: "STOP" }] };
    const { ai, requests } = recordingClient(answer);
    await contextModels(ai, context).generateContent({
      model: "gemini-2.5-flash",
      config: { systemInstruction: "Be brief.", temperature: 0 },
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
    });
    expect(requests[0]).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
      config: { systemInstruction: { parts: [{ text: "Be brief." }, { text: "Answer in French." }] }, temperature: 0 },
    });
    expect(await context.getMessages()).toEqual([
      { role: "system", content: "Answer in French." },
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Bonjour." },
    ]);
  });

  it("should tell the manager the request's model, so a later summary knows whose prompt cache holds the view", async () => {
    const context = await manager();
    const viewFor = vi.spyOn(context, "getMessagesForRequest");
    const answer = { candidates: [{ content: { role: "model", parts: [{ text: "Hi." }] }, finishReason: "STOP" }] };
    const { ai } = recordingClient(answer);
    await contextModels(ai, context).generateContent({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
    });
    expect(viewFor.mock.calls[0]![0]).toMatchObject({ model: "gemini-2.5-flash" });
  });

  it("should store the model's thoughts, signatures and calls as they came, and give calls with no id stable ones", async () => {
    const context = await manager();
    const parts = [
      { text: "Which file?", thought: true, thoughtSignature: "dGhvdWdodA==" },
      { functionCall: { name: "read_file", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" },
    ];
    const { ai } = recordingClient({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] });
    await contextModels(ai, context).generateContent({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: "Read a.txt" }] }],
    });
    expect((await context.getMessages())[1]).toEqual({
      role: "assistant",
      content: [
        { type: "gemini_thought", part: parts[0] },
        { type: "gemini_thought_signature", thoughtSignature: "Y2FsbA==", callId: "gemini-call-0-read_file" },
      ],
      tool_calls: [{ id: "gemini-call-0-read_file", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }],
      metadata: { provenance: { provider: "google", model: "gemini-2.5-flash" } },
    });
  });

  it("should leave another model's thoughts and signatures out of a request, and send them back to their own model", async () => {
    const context = await manager();
    const thought = { text: "Short answer.", thought: true, thoughtSignature: "dGhvdWdodA==" };
    const answer = {
      candidates: [{ content: { role: "model", parts: [thought, { text: "Hi.", thoughtSignature: "dGV4dA==" }] }, finishReason: "STOP" }],
    };
    const { ai, requests } = recordingClient(answer);
    const gemini = contextModels(ai, context);
    const ask = (model: string) => gemini.generateContent({ model, contents: [{ role: "user", parts: [{ text: "Again?" }] }] });
    await ask("models/gemini-2.5-flash");
    await ask("gemini-3-pro-preview");
    await ask("gemini-2.5-flash");
    expect(requests[1]?.contents).toEqual([
      { role: "user", parts: [{ text: "Again?" }] },
      { role: "model", parts: [{ text: "Hi." }] },
      { role: "user", parts: [{ text: "Again?" }] },
    ]);
    expect((requests[2]?.contents as { parts: unknown[] }[])[1]?.parts).toEqual([thought, { text: "Hi.", thoughtSignature: "dGV4dA==" }]);
    // The history keeps every part, whichever model a request went to.
    expect(JSON.stringify(await context.getMessages())).toContain("dGhvdWdodA==");
  });

  it("should store only the caller's contents when the answer has none (a blocked prompt)", async () => {
    const context = await manager();
    const { ai } = recordingClient({ promptFeedback: { blockReason: "SAFETY" } });
    const response = await contextModels(ai, context).generateContent({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
    });
    expect(response).toMatchObject({ promptFeedback: { blockReason: "SAFETY" } });
    expect(await context.getMessages()).toEqual([{ role: "user", content: "Hello" }]);
  });
});
