// The kit's Anthropic request rules and the Messages imitation give one verdict on the requests around a compaction.
import Anthropic from "@anthropic-ai/sdk";
import { checkAnthropicRequest } from "@ctxkit/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await startAnthropicImitation();
});
afterAll(() => server.close());

const compaction = { type: "compaction", content: "Summary: the user read a.txt.", encrypted_content: "opaque==" };

const REQUESTS: Record<string, { role: "user" | "assistant"; content: unknown }[]> = {
  "the turn after a compaction, which opens the conversation": [
    { role: "assistant", content: [compaction, { type: "text", text: "a.txt says alpha." }] },
    { role: "user", content: "And b.txt?" },
  ],
  "a compaction block after another block": [
    { role: "user", content: "Read a.txt" },
    { role: "assistant", content: [{ type: "text", text: "Reading." }, compaction] },
    { role: "user", content: "And b.txt?" },
  ],
  "a compaction block in a later message": [
    { role: "user", content: "Read a.txt" },
    { role: "assistant", content: [compaction] },
    { role: "user", content: "And b.txt?" },
  ],
};

describe("checkAnthropicRequest and the Messages imitation", () => {
  // (regression) The kit refused the request after a compaction ("unknown block type compaction"); the imitation took it.
  it.each(Object.entries(REQUESTS))("should agree on %s", async (_case, messages) => {
    const client = new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 });
    const accepted = await client.messages
      .create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: messages as Anthropic.MessageParam[] })
      .then(
        () => true,
        (error: unknown) => {
          if ((error as { status?: unknown }).status !== 400) throw error;
          return false;
        },
      );
    expect(checkAnthropicRequest({ messages }).length === 0).toBe(accepted);
  });
});
