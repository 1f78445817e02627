import type { Message } from "@ctxkit/core";
import { deepFreeze } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { checkAnthropicRequest } from "@ctxkit/conformance";
import { countBreakpoints } from "../test/__fixtures__/check-anthropic-messages.js";
import { MAX_CACHE_BREAKPOINTS } from "./cache-breakpoints.js";
import { toAnthropicMessages } from "./to-anthropic-messages.js";

const frozen = (messages: Message[]): Message[] => messages.map((message) => deepFreeze(message));

const first = frozen([
  { role: "system", content: "You are a careful agent." },
  { role: "user", content: "Step one." },
  { role: "assistant", content: "Done one." },
]);

describe("cache breakpoints", () => {
  it("should mark the end of the system prompt and the end of the request", () => {
    const request = toAnthropicMessages(first);
    expect(request.system!.at(-1)).toEqual({ type: "text", text: "You are a careful agent.", cache_control: { type: "ephemeral" } });
    expect(request.messages.at(-1)!.content).toEqual([{ type: "text", text: "Done one.", cache_control: { type: "ephemeral" } }]);
    expect(countBreakpoints(request)).toBe(2);
  });

  it("should mark the last message the previous view shares, so its cached prefix is read back", () => {
    const second = [
      ...first,
      ...frozen([
        { role: "user", content: "Step two." },
        { role: "assistant", content: "Done two." },
      ]),
    ];
    const request = toAnthropicMessages(second, { previous: first, ttl: "1h" });
    expect(request.messages[1]!.content).toEqual([{ type: "text", text: "Done one.", cache_control: { type: "ephemeral", ttl: "1h" } }]);
    expect(request.messages[3]!.content).toEqual([{ type: "text", text: "Done two.", cache_control: { type: "ephemeral", ttl: "1h" } }]);
    expect(countBreakpoints(request)).toBe(3);
    // The marked prefix is byte-identical to what the previous request sent up to its breakpoint.
    const before = toAnthropicMessages(first, { ttl: "1h" });
    expect(JSON.stringify(request.messages.slice(0, 2))).toBe(JSON.stringify(before.messages));
  });

  it("should stop at the first message that changed (after a compaction)", () => {
    const compacted = frozen([
      first[0]!,
      { role: "user", content: "<summary>one</summary>" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "Step two." },
    ]);
    const request = toAnthropicMessages(compacted, { previous: first });
    // Only the system prompt is shared: no message breakpoint but the request's end.
    expect(countBreakpoints(request)).toBe(2);
  });

  it("should put a breakpoint on the block before a thinking block, which takes none", () => {
    const view: Message[] = [
      { role: "user", content: "x" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "t" },
          { type: "thinking", thinking: "hm", signature: "s" },
        ],
      },
    ];
    const request = toAnthropicMessages(view);
    expect(request.messages[1]!.content).toEqual([
      { type: "text", text: "t", cache_control: { type: "ephemeral" } },
      { type: "thinking", thinking: "hm", signature: "s" },
    ]);
  });

  it("should never place more than four, counting breakpoints the caller's blocks already carry", () => {
    const marked = {
      type: "document",
      source: { type: "text", media_type: "text/plain", data: "doc" },
      cache_control: { type: "ephemeral" },
    };
    const view: Message[] = [
      { role: "system", content: "s" },
      { role: "user", content: [marked, { ...marked }, { ...marked }] },
      { role: "assistant", content: "a" },
    ];
    const request = toAnthropicMessages(view, { previous: view.slice(0, 2) });
    expect(countBreakpoints(request)).toBe(MAX_CACHE_BREAKPOINTS);
  });

  it("should place none with cache: false", () => {
    expect(countBreakpoints(toAnthropicMessages(first, { cache: false }))).toBe(0);
  });

  it("should keep stored blocks' own cache_control plus its own breakpoints within four (regression)", () => {
    const document = (title: string) => ({
      type: "document",
      title,
      source: { type: "text", media_type: "text/plain", data: title },
      cache_control: { type: "ephemeral" },
    });
    const view = frozen([
      { role: "system", content: "You are a careful agent." },
      { role: "user", content: ["a", "b", "c", "d", "e", "f"].map(document) },
      { role: "assistant", content: "Read them." },
      {
        role: "user",
        content: [{ type: "text", text: "Again?" }, document("g")],
      },
    ]);
    const request = toAnthropicMessages(view, { previous: view.slice(0, 3) });
    expect(countBreakpoints(request)).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
    expect(checkAnthropicRequest(request)).toEqual([]);
    // The latest stored breakpoints are the ones kept: they cover the longest prefix.
    expect(request.messages.at(-1)!.content.at(-1)).toMatchObject({ title: "g", cache_control: { type: "ephemeral" } });
  });
});
