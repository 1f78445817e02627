import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { findMissingRequired, findUnmatchedViewMessage, isShortenedForm } from "./match-history.js";

const user = (content: string): Message => ({ role: "user", content });
const call: Message = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "a", type: "function", function: { name: "bash", arguments: "{}" } }],
};
const result = (content: string): Message => ({ role: "tool", tool_call_id: "a", content });
const repair: Message = { role: "tool", tool_call_id: "a", content: "missing", metadata: { ctxkit: { source: "repair" } } };

describe("isShortenedForm", () => {
  it("should accept a tool result with any content, such as a placeholder, and other metadata", () => {
    expect(
      isShortenedForm({ ...result("[tool result cleared to save context: 40 tokens]"), metadata: { ctxkitEdit: {} } }, result("𠀀𠀁𠀂𠀃")),
    ).toBe(true);
  });

  it("should accept a text that keeps the original's start or end", () => {
    const original = user("The quick brown fox jumps over the lazy dog");
    expect(isShortenedForm(user("The quick [… trimmed …] dog"), original)).toBe(true);
    expect(isShortenedForm(user("[trimmed] the lazy dog"), original)).toBe(true);
  });

  it("should reject another text of the same role, and a longer one", () => {
    expect(isShortenedForm(user("two"), user("one"))).toBe(false);
    expect(isShortenedForm(user("The quick brown fox and more and more"), user("The quick brown fox"))).toBe(false);
  });

  it("should reject another tool_call_id, role or call list", () => {
    expect(isShortenedForm({ role: "tool", tool_call_id: "b", content: "x" }, result("x"))).toBe(false);
    expect(isShortenedForm(user("x"), { role: "assistant", content: "x" })).toBe(false);
    expect(isShortenedForm({ role: "assistant", content: null, tool_calls: [] }, call)).toBe(false);
  });
});

describe("findUnmatchedViewMessage", () => {
  it("should accept a subsequence of the history with shortened messages and synthetic ones anywhere", () => {
    const history = [user("one"), call, result("big"), user("two")];
    expect(findUnmatchedViewMessage([call, result("[cleared]"), repair, user("two")], history)).toBe(-1);
  });

  it("should find a message out of history order", () => {
    expect(findUnmatchedViewMessage([user("two"), user("one")], [user("one"), user("two")])).toBe(1);
  });

  it("should find a message used twice or not in the history", () => {
    expect(findUnmatchedViewMessage([user("one"), user("one")], [user("one")])).toBe(1);
    expect(findUnmatchedViewMessage([user("invented")], [user("one")])).toBe(0);
  });
});

describe("findMissingRequired", () => {
  it("should require exact messages exactly and allow shortened ones where permitted", () => {
    const required = [
      { historyIndex: 0, message: user("question"), mayShorten: false, why: "the latest user message" },
      { historyIndex: 1, message: result("big"), mayShorten: true, why: "current turn" },
    ];
    expect(findMissingRequired([user("question"), result("[cleared]")], required)).toBeUndefined();
    expect(findMissingRequired([user("question, trimmed"), result("big")], required)).toBe(required[0]);
    expect(findMissingRequired([user("question")], required)).toBe(required[1]);
  });
});
