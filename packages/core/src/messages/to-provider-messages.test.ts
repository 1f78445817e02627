import { describe, expect, it } from "vitest";
import { parseMessage } from "./parse-message.js";
import { toProviderMessage, toProviderMessages } from "./to-provider-messages.js";

describe("toProviderMessages", () => {
  it("should leave metadata out of every message and keep every other key", () => {
    const pinned = parseMessage({ role: "user", content: "keep me", name: "ada", metadata: { pinned: true } });
    const call = parseMessage({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }],
      metadata: { ctxkit: { source: "repair" } },
    });
    const sent = toProviderMessages([pinned, call]);
    expect(sent).toEqual([
      { role: "user", content: "keep me", name: "ada" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] },
    ]);
    expect(JSON.stringify(sent)).not.toContain("metadata");
  });

  it("should return the very object when there is nothing to strip", () => {
    const plain = parseMessage({ role: "user", content: "hi" });
    expect(toProviderMessage(plain)).toBe(plain);
  });

  it("should give the same frozen copy each time, so repeated views stay identical", () => {
    const tagged = parseMessage({ role: "user", content: "hi", metadata: { pinned: true } });
    const first = toProviderMessage(tagged);
    expect(toProviderMessage(tagged)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(tagged.metadata).toEqual({ pinned: true });
  });
});
