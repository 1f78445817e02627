// Anthropic's server-side context management through contextMessages: compaction blocks stored verbatim as records
// and sent back first, context-editing results kept, with the real client over HTTP against the imitation.
import Anthropic from "@anthropic-ai/sdk";
import type { Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { contextMessages, isCompactionRecord, type ContextMessageParams } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const tools: Tool[] = [
  { name: "read_file", description: READ_FILE_DESCRIPTION, input_schema: { type: "object", properties: { path: { type: "string" } } } },
];
const contextManagement = {
  edits: [
    { type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 4_000 }, keep: { type: "tool_uses", value: 1 } },
    { type: "compact_20260112", trigger: { type: "input_tokens", value: 5_500 } },
  ],
};
const headers = { "anthropic-beta": "compact-2026-01-12,context-management-2025-06-27" };

let server: LoopbackServer;
beforeAll(async () => {
  server = await startAnthropicImitation();
});
afterAll(() => server.close());

type Block = { type: string; cache_control?: unknown };

describe("contextMessages with Anthropic's context management", () => {
  it("should store each compaction block verbatim as its own record, send the latest first, and keep the edits", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const claude = contextMessages(new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 }), context);
    const params = { model: "claude-sonnet-4-6", tools, max_tokens: 1024, context_management: contextManagement };
    for (let turn = 1; turn <= 15; turn += 1) {
      let response = await claude.create({ ...params, messages: [{ role: "user", content: questionFor(turn) }] } as ContextMessageParams, {
        headers,
      });
      while (response.stop_reason === "tool_use") {
        const results: ToolResultBlockParam[] = response.content
          .filter((block) => block.type === "tool_use")
          .map((call) => ({ type: "tool_result", tool_use_id: call.id, content: readFile(JSON.stringify(call.input)) }));
        response = await claude.create({ ...params, messages: [{ role: "user", content: results }] } as ContextMessageParams, { headers });
      }
    }
    // A rejection here is the window's, recovered by the retry right after it.
    const rejected = server.requests.filter((request) => request.status !== 200);
    for (const request of rejected) expect(JSON.stringify(request.response)).toMatch(/prompt is too long|exceed context limit/);
    const accepted = server.requests.filter((request) => request.status === 200);
    const issued: Block[] = [];
    let checkedAfterCompaction = 0;
    for (const request of accepted) {
      const latest = issued.at(-1);
      if (latest !== undefined) {
        const first = (request.body["messages"] as { content: Block[] }[])[0]!.content[0]!;
        const { cache_control: _cacheControl, ...sent } = first;
        expect(sent).toEqual(latest);
        checkedAfterCompaction += 1;
      }
      const content = (request.response as { content: Block[] }).content;
      issued.push(...content.filter((block) => block.type === "compaction"));
    }
    expect(issued.length).toBeGreaterThan(1);
    expect(checkedAfterCompaction).toBeGreaterThan(0);
    // Verbatim, in the order issued, each a pinned record of its own.
    const history = await context.getMessages();
    const records = history.filter(isCompactionRecord);
    expect(records.map((record) => (record.content as unknown[])[0])).toEqual(issued);
    for (const record of records) expect(record.metadata?.pinned).toBe(true);
    const edits = history.flatMap(
      (message) => (message.metadata?.["anthropic"] as { appliedEdits?: unknown[] } | undefined)?.appliedEdits ?? [],
    );
    expect(edits.length).toBeGreaterThan(0);
    expect(edits[0]).toMatchObject({ type: "clear_tool_uses_20250919", cleared_input_tokens: expect.any(Number) });
  });
});
