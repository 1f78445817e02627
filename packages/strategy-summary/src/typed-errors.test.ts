// The summary package's entry points answer bad input and failed models with typed ctxkit errors naming the field.
import { ContextError, createCoordinator } from "@ctxkit/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStrategy, openAIChatSummarizer, type OpenAIChatClient } from "./index.js";
import { providerSummarizer } from "./provider-summarizer.js";
import type { SummarizerRequest } from "./summarizer.js";

const request: SummarizerRequest = {
  messages: [{ role: "user", content: "hello" }],
  previousSummary: undefined,
  instructions: "Summarize.",
  signal: new AbortController().signal,
  maxTokens: 100,
};

function answering(response: unknown): OpenAIChatClient {
  return { chat: { completions: { create: async () => response as never } } };
}

async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

async function withIncompleteProvider() {
  const coordinator = createCoordinator();
  await coordinator.mount("providers", {} as never, { name: "llm" });
  return coordinator;
}

const cases: Array<{ call: string; field: string; code: string; run: () => unknown }> = [
  { call: "openAIChatSummarizer", field: "client", code: "CONTEXT_ARGUMENT", run: () => openAIChatSummarizer({} as never, { model: "m" }) },
  {
    call: "openAIChatSummarizer",
    field: "options.model",
    code: "CONTEXT_ARGUMENT",
    run: () => openAIChatSummarizer(answering({}), undefined as never),
  },
  {
    call: "a summary from a null answer",
    field: "choices",
    code: "CONTEXT_SUMMARIZER",
    run: () => openAIChatSummarizer(answering(null), { model: "m" })(request),
  },
  {
    call: "a summary from a malformed answer",
    field: "choices",
    code: "CONTEXT_SUMMARIZER",
    run: () => openAIChatSummarizer(answering({ choices: "none" }), { model: "m" })(request),
  },
  {
    call: "a summary when the client fails",
    field: 'model "m"',
    code: "CONTEXT_SUMMARIZER",
    run: () =>
      openAIChatSummarizer(
        { chat: { completions: { create: () => Promise.reject(new TypeError("fetch failed")) } } },
        { model: "m" },
      )(request),
  },
  {
    call: "a summary without a provider",
    field: 'provider "llm"',
    code: "CONTEXT_SUMMARIZER",
    run: () => providerSummarizer(createCoordinator(), "llm")(request),
  },
  {
    call: "createStrategy",
    field: "provider",
    code: "CONTEXT_CONFIG",
    run: async () => createStrategy({ provider: "llm" }, await withIncompleteProvider()),
  },
];

describe("typed errors at the summary package's entry points", () => {
  it.each(cases)("$call should throw a ContextError $code naming $field", async ({ field, code, run }) => {
    const error = await errorOf(run);
    expect(error).toBeInstanceOf(ContextError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toContain(field);
  });

  it("should answer any JSON from the model with text or a ContextError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (response) => {
        try {
          expect(typeof (await openAIChatSummarizer(answering(response), { model: "m" })(request))).toBe("string");
        } catch (error) {
          expect(error).toBeInstanceOf(ContextError);
        }
      }),
    );
  });
});
