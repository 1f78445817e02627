import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary, messageTextArbitrary } from "../../test/arbitraries.js";
import {
  assistantMessage,
  createRepairedTestView,
  createTestContext,
  createTestView,
  developerMessage,
  pinnedMessage,
  systemMessage,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { createTrimLongText, cutText, trimLongText, trimText } from "./trim-long-text.js";

const LONG = "0123456789".repeat(10);

async function trimAll(messages: Message[], options: Parameters<typeof trimLongText>[0], target = 0) {
  return trimLongText(options).apply(createTestView(messages), createTestContext({ target }));
}

describe("trimText", () => {
  it("should keep the head and the tail around a marker that counts the removed characters", () => {
    expect(trimText(LONG, 10, 5)).toBe(`0123456789\n[… 85 characters trimmed …]\n56789`);
  });

  it("should never split a surrogate pair, whatever the cut", () => {
    const text = "😀".repeat(50);
    for (const head of [1, 2, 3, 7]) {
      const trimmed = trimText(text, head, head);
      expect(trimmed).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u);
    }
  });

  it("should count removed characters as code points", () => {
    expect(trimText("😀".repeat(20), 2, 2)).toBe("😀\n[… 18 characters trimmed …]\n😀");
  });

  it("should leave a text whole when the marker would be no shorter than what it replaces", () => {
    // Ten emoji are 40 bytes; the marker for the eight in the middle would be 32 bytes plus the two kept.
    expect(trimText("😀".repeat(10), 2, 2)).toBe("😀".repeat(10));
    const mixed = `{"status":"ok","count":3}请帮我修复这个错误  ກ{"status":"ok","count":3}   `;
    expect(trimText(mixed, 36, 12)).toBe(mixed);
  });

  it("should not separate a base character from its combining mark", () => {
    const trimmed = trimText("e\u0301".repeat(20), 3, 3);
    expect(trimmed).toBe(`e\u0301\n[… 36 characters trimmed …]\ne\u0301`);
  });

  it("should not cut inside an emoji ZWJ sequence", () => {
    const coder = "👩‍💻"; // five UTF-16 units
    const trimmed = trimText(coder.repeat(10), 7, 7);
    expect(trimmed.startsWith(`${coder}\n[…`)).toBe(true);
    expect(trimmed.endsWith(`…]\n${coder}`)).toBe(true);
  });

  it("should fall back to a code point boundary inside a cluster too long to segment cheaply", () => {
    const zalgo = `a${"\u0301".repeat(200)}`;
    const trimmed = trimText(`${zalgo}${"😀".repeat(100)}`, 100, 101);
    expect(trimmed.startsWith(zalgo.slice(0, 100))).toBe(true);
    expect(trimmed.endsWith("😀".repeat(50))).toBe(true);
  });
});

describe("trimText (property)", () => {
  const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const pieces = ["a", "b", " ", "\r", "\n", "\r\n", "e\u0301", "é", "😀", "👩‍💻", "请"];

  it("should cut the head and the tail on the grapheme boundaries nearest to the asked lengths", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 20, maxLength: 120 }), fc.nat(60), fc.nat(60), (parts, head, tail) => {
        const text = parts.join("");
        const trimmed = trimText(text, head, tail);
        fc.pre(trimmed !== text);
        const boundaries = [...graphemes.segment(text)].map((segment) => segment.index).concat(text.length);
        const headEnd = Math.max(...boundaries.filter((boundary) => boundary <= head));
        const tailStart = Math.min(...boundaries.filter((boundary) => boundary >= text.length - tail));
        const marker = trimmed.indexOf("\n[… ");
        expect(trimmed.slice(0, marker)).toBe(text.slice(0, headEnd));
        expect(trimmed.slice(trimmed.indexOf(" trimmed …]\n") + " trimmed …]\n".length)).toBe(text.slice(tailStart));
      }),
    );
  });
});

describe("cutText", () => {
  const bytes = (text: string) => new TextEncoder().encode(text).length;

  it("should leave a text whose cut tail is no longer in UTF-8 than the ellipsis", () => {
    // The shortest stubs once turned these 22 characters (42 bytes) into 43 bytes, which is no shortened form.
    const text = "    日本語のテキストです      ! ";
    expect(cutText(text, 20)).toBe(text);
    expect(cutText("abcdefghij", 8)).toBe("abcdefghij");
    expect(cutText("abcdefghijk", 7)).toBe("abcdefg…");
  });

  it("should give the text or a prefix cut on a grapheme boundary, with fewer UTF-8 bytes, for any text", () => {
    const pieces = ["a", " ", "!", "\r\n", "e\u0301", "é", "😀", "👩‍💻", "日", "…"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.nat(30), (parts, head) => {
        const text = parts.join("");
        const cut = cutText(text, head);
        if (cut === text) return;
        expect(cut.endsWith("…")).toBe(true);
        expect(bytes(cut)).toBeLessThan(bytes(text));
        expect(text.startsWith(cut.slice(0, -1))).toBe(true);
        expect(cut.slice(0, -1).length).toBeLessThanOrEqual(head);
        expect(cut).not.toMatch(LONE_SURROGATE);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});

describe("trimLongText", () => {
  describe("maxChars", () => {
    it("should leave text at or under the limit alone and return the same draft", async () => {
      const view = createTestView([assistantMessage(LONG), userMessage("next")]);
      const result = await trimLongText({ maxChars: 100 }).apply(view, createTestContext());
      expect(result).toEqual({ view, applied: false });
      expect(result.view).toBe(view);
    });

    it("should keep 40% head and 20% tail of maxChars by default", async () => {
      const result = await trimAll([assistantMessage(LONG), userMessage("next")], { maxChars: 50 });
      expect(result.view.entries[0]!.message.content).toBe(trimText(LONG, 20, 10));
    });
  });

  describe("createTrimLongText", () => {
    it("should trim again, to its own lower limit, what a trim under another name left at a higher one (regression)", async () => {
      const long = "0123456789".repeat(100);
      const messages = [toolCallMessage("a"), toolResultMessage("a", long), userMessage("next")];
      const first = await trimAll(messages, { maxChars: 500 });
      const hard = createTrimLongText("trim-long-text (last resort)", { maxChars: 100 });
      const second = await hard.apply(first.view, createTestContext({ target: 0 }));
      expect(String(second.view.entries[1]!.message.content).length).toBeLessThanOrEqual(100);
      expect(second.view.entries[1]!.edit).toMatchObject({ strategy: "trim-long-text (last resort)" });
      // Its own trims it leaves alone.
      const third = await hard.apply(second.view, createTestContext({ target: 0 }));
      expect(third.applied).toBe(false);
    });
  });

  describe("headChars and tailChars", () => {
    it("should keep as much head and tail as asked", async () => {
      const result = await trimAll([toolCallMessage("a"), toolResultMessage("a", LONG), userMessage("next")], {
        maxChars: 50,
        headChars: 3,
        tailChars: 4,
      });
      expect(result.view.entries[1]!.message).toMatchObject({ role: "tool", tool_call_id: "a", content: trimText(LONG, 3, 4) });
      expect(result.view.entries[1]!.message.metadata).toBeUndefined();
      expect(result.view.entries[1]!.edit).toEqual({ strategy: "trim-long-text", originalTokens: expect.any(Number) });
    });

    it("should reject a head and tail that together reach maxChars, and non-integers", () => {
      expect(() => trimLongText({ maxChars: 10, headChars: 6, tailChars: 4 })).toThrow(ContextConfigError);
      expect(() => trimLongText({ maxChars: 0 })).toThrow(ContextConfigError);
      expect(() => trimLongText({ maxChars: 100, headChars: -1 })).toThrow(ContextConfigError);
    });
  });

  describe("content parts", () => {
    it("should trim long text parts and keep other parts and tool-call arguments as they are", async () => {
      const image = { type: "image_url", image_url: { url: "https://example.com/a.png" } };
      const call: Message = {
        role: "assistant",
        content: LONG,
        tool_calls: [{ id: "a", type: "function", function: { name: "bash", arguments: LONG } }],
      };
      const result = await trimAll(
        [
          userMessage("task"),
          { role: "user", content: [{ type: "text", text: LONG }, image] },
          call,
          toolResultMessage("a", "ok"),
          userMessage("next"),
        ],
        { maxChars: 50 },
      );
      expect(result.view.entries[1]!.message.content).toEqual([{ type: "text", text: trimText(LONG, 20, 10) }, image]);
      expect(result.view.entries[2]!.message).toMatchObject({
        content: trimText(LONG, 20, 10),
        tool_calls: [{ function: { arguments: LONG } }],
      });
    });
  });

  describe("tool-call arguments", () => {
    it("should trim long string values inside JSON arguments and keep them valid JSON", async () => {
      const argumentsText = JSON.stringify({ path: "a.ts", content: LONG, lines: [LONG, "short"] });
      const call: Message = {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "w", type: "function", function: { name: "write", arguments: argumentsText } }],
      };
      const result = await trimAll([userMessage("task"), call, toolResultMessage("w", "ok"), userMessage("next")], { maxChars: 50 });
      const message = result.view.entries[1]!.message;
      const trimmed = message.role === "assistant" ? message.tool_calls![0]!.function.arguments : "";
      expect(trimmed.length).toBeLessThan(argumentsText.length);
      expect(JSON.parse(trimmed)).toEqual({ path: "a.ts", content: trimText(LONG, 10, 5), lines: [trimText(LONG, 10, 5), "short"] });
    });
  });

  describe("order and target", () => {
    it("should trim oldest first and stop as soon as the view is at or below the target", async () => {
      const view = createTestView([assistantMessage(LONG), assistantMessage(LONG), userMessage("next")]);
      const result = await trimLongText({ maxChars: 50 }).apply(view, createTestContext({ target: view.tokens - 1 }));
      expect(result.view.entries[0]!.message.content).not.toBe(LONG);
      expect(result.view.entries[1]!.message.content).toBe(LONG);
    });

    it("should not trim a message it already trimmed", async () => {
      const strategy = trimLongText({ maxChars: 50, headChars: 30, tailChars: 19 });
      const once = await strategy.apply(createTestView([assistantMessage(LONG.repeat(2)), userMessage("next")]), createTestContext());
      const twice = await strategy.apply(once.view, createTestContext());
      expect(twice.view).toBe(once.view);
    });
  });

  describe("protections", () => {
    it("should never alter system, developer, pinned or the latest user message", async () => {
      const protectedMessages = [systemMessage(LONG), developerMessage(LONG), pinnedMessage(assistantMessage(LONG))];
      const result = await trimAll([...protectedMessages, userMessage(LONG)], { maxChars: 50 });
      expect(result.applied).toBe(false);
    });

    it("should trim an older user message and what follows the latest user message", async () => {
      const result = await trimAll([userMessage(LONG), userMessage("latest"), assistantMessage(LONG)], { maxChars: 50 });
      expect(result.view.entries.map((entry) => entry.message.content === LONG)).toEqual([false, false, false]);
      expect(result.view.entries[1]!.message.content).toBe("latest");
    });

    it("should keep each entry's source and leave the input draft as it was", async () => {
      const view = createTestView([assistantMessage(LONG), userMessage("next")]);
      const before = structuredClone(view.entries);
      const result = await trimLongText({ maxChars: 50 }).apply(view, createTestContext());
      expect(result.view.entries.map((entry) => entry.source)).toEqual(view.entries.map((entry) => entry.source));
      expect(view.entries).toEqual(before);
    });
  });
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const TRIMMED = /^([\s\S]*)\n\[… (\d+) characters trimmed …\]\n([\s\S]*)$/u;

/** CJK, emoji (surrogate pairs, ZWJ sequences, flags), combining marks and any printable grapheme. */
const denseTextArbitrary: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(
      fc.oneof(
        messageTextArbitrary(),
        fc.string({ unit: "grapheme", minLength: 1 }),
        fc.constantFrom("😀", "👩‍💻", "🇯🇵🇫🇷", "漢字", "e\u0301", "👍🏽"),
      ),
      { minLength: 1, maxLength: 8 },
    ),
    fc.integer({ min: 1, max: 40 }),
  )
  .map(([fragments, times]) => fragments.join("").repeat(times));

const codePoints = (text: string) => [...text].length;

describe("trimLongText (properties)", () => {
  it("should keep a prefix and a suffix of the original, never splitting a surrogate pair", () => {
    fc.assert(
      fc.property(denseTextArbitrary, fc.nat({ max: 300 }), fc.nat({ max: 300 }), (text, headChars, tailChars) => {
        const trimmed = trimText(text, headChars, tailChars);
        expect(LONE_SURROGATE.test(trimmed)).toBe(false);
        const match = TRIMMED.exec(trimmed);
        if (match === null) {
          expect(trimmed).toBe(text);
          return;
        }
        const [, head = "", removed = "", tail = ""] = match;
        expect(text.startsWith(head) && head.length <= headChars).toBe(true);
        expect(text.endsWith(tail) && tail.length <= tailChars).toBe(true);
        expect(Number(removed)).toBe(codePoints(text) - codePoints(head) - codePoints(tail));
      }),
      { numRuns: 500 },
    );
  });

  it("should leave no lone surrogate in any view it trims", async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary({ hugeOutputs: true, maxUnits: 6 }),
        fc.integer({ min: 10, max: 500 }),
        async (history, maxChars) => {
          const view = createRepairedTestView(history);
          const result = await trimLongText({ maxChars }).apply(view, createTestContext());
          for (const entry of result.view.entries) expect(LONE_SURROGATE.test(JSON.stringify(entry.message.content))).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
