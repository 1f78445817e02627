import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { findRequiredMessages } from "./minimal-view.js";

const system: Message = { role: "system", content: "be brief" };
const user = (content: string, pinned = false): Message => ({ role: "user", content, ...(pinned ? { metadata: { pinned: true } } : {}) });
const answer = (content: string): Message => ({ role: "assistant", content });
const call = (id: string): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "bash", arguments: "{}" } }],
});
const result = (id: string): Message => ({ role: "tool", tool_call_id: id, content: "ok" });

const summarize = (history: Message[]) => findRequiredMessages(history).map((item) => [item.historyIndex, item.mayShorten]);

describe("findRequiredMessages", () => {
  it("should require instructions and pins exactly, the latest user message exactly, and what follows it in any form", () => {
    const history = [system, user("old", true), answer("old answer"), user("now"), call("a"), result("a")];
    expect(summarize(history)).toEqual([
      [0, false],
      [1, false],
      [3, false],
      [4, true],
      [5, true],
    ]);
  });

  it("should require the last unit when there is no user message", () => {
    expect(summarize([system, answer("hi"), call("a"), result("a")])).toEqual([
      [0, false],
      [2, true],
      [3, true],
    ]);
  });

  it("should not require a result that repair leaves out", () => {
    expect(summarize([user("now"), result("orphan")])).toEqual([[0, false]]);
  });
});
