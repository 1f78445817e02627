import { checkAnthropicRequest } from "@ctxkit/conformance";
import type { ContentPart, Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { fromAnthropicMessages } from "../from-anthropic-messages.js";
import { toAnthropicMessages } from "../to-anthropic-messages.js";
import { fromLatestCompaction, isCompactionRecord, toCompactionRecords } from "./compaction-records.js";

const block = { type: "compaction", content: "Summary: the user read a.txt.", encrypted_content: "opaque==", signature: "sig" };

describe("toCompactionRecords", () => {
  it("should store a response's compaction block verbatim as a pinned record of its own, before the rest of the turn", () => {
    const response = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        block,
        { type: "text", text: "Reading b.txt." },
        { type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "b.txt" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const records = toCompactionRecords(fromAnthropicMessages([response as never]));
    expect(records).toEqual([
      { role: "assistant", content: [block], metadata: { pinned: true } },
      {
        role: "assistant",
        content: [{ type: "text", text: "Reading b.txt." }],
        tool_calls: [{ id: "toolu_2", type: "function", function: { name: "read_file", arguments: '{"path":"b.txt"}' } }],
      },
    ]);
    expect(isCompactionRecord(records[0]!)).toBe(true);
  });

  it("should leave messages without a compaction block as they are", () => {
    const message: Message = { role: "assistant", content: [{ type: "text", text: "hi" }] };
    expect(toCompactionRecords([message])[0]).toBe(message);
  });
});

describe("fromLatestCompaction", () => {
  it("should send the view from its latest compaction record, system kept, the block first in messages", () => {
    const record: Message = { role: "assistant", content: [block as unknown as ContentPart], metadata: { pinned: true } };
    const view: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Read a.txt" },
      { role: "assistant", content: "It says alpha." },
      record,
      { role: "user", content: "And b.txt?" },
    ];
    const sent = fromLatestCompaction(view);
    expect(sent.map((message) => message.role)).toEqual(["system", "assistant", "user"]);
    const request = toAnthropicMessages(sent, { cache: false });
    // Verbatim, and first: no opening user text is put before a compaction block.
    expect(request.messages[0]).toEqual({ role: "assistant", content: [block] });
    expect(request.system).toEqual([{ type: "text", text: "Be brief." }]);
  });

  // (regression) The kit's own request rules refused this request ("unknown block type compaction"), which the API takes.
  it("should send a request after a compaction that the kit's Anthropic rules accept", () => {
    const response = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [block, { type: "text", text: "a.txt says alpha." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const history: Message[] = [
      { role: "user", content: "Read a.txt" },
      ...toCompactionRecords(fromAnthropicMessages([response as never])),
      { role: "user", content: "And b.txt?" },
    ];
    const request = toAnthropicMessages(fromLatestCompaction(history), { cache: false });
    expect(checkAnthropicRequest(request)).toEqual([]);
  });
});
