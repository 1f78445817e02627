import type { Message } from "@ctxkit/core";
import { deepFreeze } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { assistant, user } from "../test/messages.js";
import { digestPrefixes } from "./history-digest.js";

const history: Message[] = [user("a"), assistant("b"), user("c")].map((message) => deepFreeze(message));

describe("digestPrefixes", () => {
  it("should change with any message of the prefix, and only of the prefix", () => {
    const digests = digestPrefixes(history, [0, 1, 2]);
    const edited = digestPrefixes([history[0]!, assistant("B"), history[2]!], [0, 1, 2]);
    expect(edited.get(0)).toBe(digests.get(0));
    expect(edited.get(1)).not.toBe(digests.get(1));
    expect(new Set(digests.values()).size).toBe(3);
  });

  it("should not depend on key order, so a message reloaded from JSON digests the same", () => {
    const reordered = { content: "a", metadata: { b: 1, a: 2 }, role: "user" } as Message;
    const original = { role: "user", metadata: { a: 2, b: 1 }, content: "a" } as Message;
    expect(digestPrefixes([reordered], [0])).toEqual(digestPrefixes([original], [0]));
  });

  it("should digest a prefix the same whichever other indices are asked for", () => {
    expect(digestPrefixes(history, [1]).get(1)).toBe(digestPrefixes(history, [0, 1, 2]).get(1));
  });
});
