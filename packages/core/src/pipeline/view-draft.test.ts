import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import {
  assistantMessage,
  countTestMessage,
  createTestView,
  developerMessage,
  pinnedMessage,
  systemMessage,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from "../../test/strategy-context.js";
import type { Message } from "../messages/message.js";
import type { ViewEntry } from "./strategy.js";
import { isSummaryEntry, SUMMARY_SOURCE } from "../messages/summary-coverage.js";
import {
  canDropUnit,
  createViewDraft,
  DROPPABLE_UNIT,
  findContextEdit,
  HISTORY_ENTRY,
  isProtectedEntry,
  redraftEntries,
  replaceEntryMessage,
  SUMMARY_UNIT,
  unitDropFlags,
} from "./view-draft.js";

function entriesOf(messages: Message[]): ViewEntry[] {
  return messages.map((message, index) => ({ message, tokens: 10 + index, source: { kind: "history", index } }));
}

describe("createViewDraft", () => {
  describe("figures", () => {
    it("should sum the entries' tokens and find units over their messages", () => {
      const view = createViewDraft(
        entriesOf([userMessage("hi"), toolCallMessage("a"), toolResultMessage("a", "ok"), assistantMessage("done")]),
      );
      expect(view.tokens).toBe(10 + 11 + 12 + 13);
      expect(view.units).toEqual([
        { start: 0, end: 1, kind: "single" },
        { start: 1, end: 3, kind: "tool" },
        { start: 3, end: 4, kind: "single" },
      ]);
    });

    it("should start the current turn at the latest user message", () => {
      const view = createViewDraft(entriesOf([userMessage("one"), assistantMessage("a"), userMessage("two"), assistantMessage("b")]));
      expect(view.latestUserIndex).toBe(2);
      expect(view.currentTurnStart).toBe(2);
    });

    it("should start the current turn at the last unit when there is no user message", () => {
      const view = createViewDraft(
        entriesOf([systemMessage("s"), toolCallMessage("a", "b"), toolResultMessage("a", "1"), toolResultMessage("b", "2")]),
      );
      expect(view.latestUserIndex).toBe(-1);
      expect(view.currentTurnStart).toBe(1);
    });

    it("should describe an empty draft", () => {
      expect(createViewDraft([])).toEqual({ entries: [], tokens: 0, units: [], latestUserIndex: -1, currentTurnStart: 0 });
    });
  });

  describe("immutability", () => {
    it("should freeze the draft, its entries and units without freezing the caller's entries", () => {
      const entries = entriesOf([userMessage("hi")]);
      const view = createViewDraft(entries);
      expect(Object.isFrozen(view) && Object.isFrozen(view.entries) && Object.isFrozen(view.entries[0])).toBe(true);
      expect(Object.isFrozen(view.units[0])).toBe(true);
      expect(Object.isFrozen(entries)).toBe(false);
      expect(Object.isFrozen(entries[0])).toBe(false);
    });
  });
});

describe("isProtectedEntry", () => {
  const view = createTestView([
    systemMessage("rules"),
    developerMessage("more rules"),
    userMessage("first task"),
    pinnedMessage(assistantMessage("remember this")),
    assistantMessage("older answer"),
    userMessage("latest task"),
    toolCallMessage("a"),
    toolResultMessage("a", "output"),
  ]);
  const protectionAt = (index: number, protectFirst = 0) => isProtectedEntry(view, index, protectFirst);

  describe("instructions and pinned messages", () => {
    it("should never let system, developer or pinned messages be dropped or altered", () => {
      for (const index of [0, 1, 3]) expect(protectionAt(index)).toEqual({ canDrop: false, canAlter: false });
    });
  });

  describe("the current turn", () => {
    it("should keep the latest user message from being dropped or altered", () => {
      expect(protectionAt(5)).toEqual({ canDrop: false, canAlter: false });
    });

    it("should let what follows the latest user message be altered but not dropped", () => {
      expect(protectionAt(6)).toEqual({ canDrop: false, canAlter: true });
      expect(protectionAt(7)).toEqual({ canDrop: false, canAlter: true });
    });
  });

  describe("older messages", () => {
    it("should let ordinary older messages be dropped and altered", () => {
      expect(protectionAt(2)).toEqual({ canDrop: true, canAlter: true });
      expect(protectionAt(4)).toEqual({ canDrop: true, canAlter: true });
    });
  });

  describe("protectFirst", () => {
    it("should keep history messages below protectFirst from being dropped, while they may be altered", () => {
      expect(protectionAt(2, 3)).toEqual({ canDrop: false, canAlter: true });
      expect(protectionAt(4, 3)).toEqual({ canDrop: true, canAlter: true });
    });

    it("should compare history indices, not view positions", () => {
      const shifted = createTestView(
        [userMessage("old"), userMessage("new")],
        [
          { kind: "history", index: 7 },
          { kind: "history", index: 8 },
        ],
      );
      expect(isProtectedEntry(shifted, 0, 7).canDrop).toBe(true);
      expect(isProtectedEntry(shifted, 0, 8).canDrop).toBe(false);
    });
  });

  describe("out of range", () => {
    it("should throw for an index outside the view", () => {
      expect(() => protectionAt(8)).toThrow(RangeError);
    });
  });

  describe("canDropUnit", () => {
    it("should allow a unit to be dropped only when every entry in it may be", () => {
      const pinnedResult = createTestView([
        userMessage("task"),
        toolCallMessage("a"),
        pinnedMessage(toolResultMessage("a", "keep")),
        toolCallMessage("b"),
        toolResultMessage("b", "drop"),
        userMessage("latest"),
      ]);
      expect(canDropUnit(pinnedResult, pinnedResult.units[1]!, 0)).toBe(false);
      expect(canDropUnit(pinnedResult, pinnedResult.units[2]!, 0)).toBe(true);
    });

    it("should answer as isProtectedEntry does for every entry of the unit, on generated views", () => {
      // canDropUnit asks the rule itself, without a result per entry: the two must never part.
      const viewArbitrary = fc.record({
        history: historyArbitrary({ broken: true }),
        pinnedEvery: fc.integer({ min: 0, max: 5 }),
        protectFirst: fc.integer({ min: 0, max: 6 }),
        summaryAt: fc.option(fc.nat(), { nil: undefined }),
        coveredThrough: fc.integer({ min: -1, max: 40 }),
      });
      fc.assert(
        fc.property(viewArbitrary, ({ history, pinnedEvery, protectFirst, summaryAt, coveredThrough }) => {
          const entries: ViewEntry[] = entriesOf(history).map((entry, index) =>
            pinnedEvery > 0 && index % pinnedEvery === pinnedEvery - 1 ? { ...entry, pinned: true } : entry,
          );
          if (summaryAt !== undefined) {
            const summary: Message = {
              role: "user",
              content: "summary",
              metadata: { ctxkit: { source: "summary", summary: { coveredThrough } } },
            };
            entries.splice(summaryAt % (entries.length + 1), 0, {
              message: summary,
              tokens: 5,
              source: { kind: "synthetic", origin: "summary" },
            });
          }
          const view = createViewDraft(entries);
          for (const unit of view.units) {
            let expected = true;
            for (let index = unit.start; index < unit.end; index += 1) expected &&= isProtectedEntry(view, index, protectFirst).canDrop;
            expect(canDropUnit(view, unit, protectFirst)).toBe(expected);
          }
        }),
        { seed: 20261128, numRuns: 300 },
      );
    });
  });
});

describe("replaceEntryMessage", () => {
  const entry: ViewEntry = Object.freeze({
    message: toolResultMessage("a", "a long output"),
    tokens: 500,
    source: Object.freeze({ kind: "history", index: 4 }),
  });

  it("should keep the source, count the new message and mark it as edited, not synthetic", () => {
    const replaced = replaceEntryMessage(entry, { ...entry.message, content: "short" }, "clear-tool-results", countTestMessage);
    expect(replaced.source).toBe(entry.source);
    expect(replaced.tokens).toBe(countTestMessage(replaced.message));
    expect(findContextEdit(replaced)).toEqual({ strategy: "clear-tool-results", originalTokens: 500 });
    expect(replaced.message.metadata).toBeUndefined();
  });

  it("should trust no edit mark in a caller's metadata (regression: a forged mark made a result untrimmable)", () => {
    const forged: ViewEntry = Object.freeze({
      ...entry,
      message: { ...entry.message, metadata: { ctxkitEdit: { strategy: "clear-tool-results", originalTokens: 3 } } },
    });
    expect(findContextEdit(forged)).toBeUndefined();
    const replaced = replaceEntryMessage(forged, { ...forged.message, content: "short" }, "clear-tool-results", countTestMessage);
    expect(findContextEdit(replaced)?.originalTokens).toBe(500);
  });

  it("should keep the first original token count across edits", () => {
    const once = replaceEntryMessage(entry, { ...entry.message, content: "shorter" }, "trim-long-text", countTestMessage);
    const twice = replaceEntryMessage(once, { ...once.message, content: "x" }, "clear-tool-results", countTestMessage);
    expect(findContextEdit(twice)).toEqual({ strategy: "clear-tool-results", originalTokens: 500 });
  });

  it("should deep-freeze the new message without freezing objects the caller owns", () => {
    const callerParts = [{ type: "text", text: "part" }];
    const replaced = replaceEntryMessage(entry, { ...entry.message, content: callerParts }, "trim-long-text", countTestMessage);
    expect(Object.isFrozen(replaced.message) && Object.isFrozen(replaced.message.content)).toBe(true);
    expect(Object.isFrozen(callerParts)).toBe(false);
    expect(Object.isFrozen(callerParts[0])).toBe(false);
  });
});

describe("redraftEntries", () => {
  /** The message with its content changed and nothing that places it in a unit or a turn. */
  const shortened = (message: Message): Message =>
    message.role === "assistant" && message.tool_calls !== undefined
      ? { ...message, content: null }
      : ({ ...message, content: "[cleared]" } as Message);

  it("should give the draft createViewDraft gives, whether the replaced entries keep their shape or not", () => {
    fc.assert(
      fc.property(
        historyArbitrary({ broken: true }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (history, picks, changesShape) => {
          fc.pre(history.length > 0);
          const view = createViewDraft(entriesOf(history));
          const entries = [...view.entries];
          for (const pick of picks) {
            const position = pick % entries.length;
            const entry = entries[position]!;
            const message = changesShape ? userMessage("in place of another") : shortened(entry.message);
            entries[position] = { ...entry, message, tokens: entry.tokens === 0 ? 0 : entry.tokens - 1 };
          }
          expect(redraftEntries(view, entries)).toEqual(createViewDraft(entries));
          expect(Object.isFrozen(redraftEntries(view, entries).entries)).toBe(true);
        },
      ),
    );
  });
});

describe("unitDropFlags", () => {
  /** The flags as `unitDropFlags` promises them, asked afresh of each unit. */
  function expectedFlags(view: ReturnType<typeof createViewDraft>, protectFirst: number): number[] {
    const flags: number[] = new Array<number>(view.entries.length).fill(0);
    for (const unit of view.units) {
      let bits = canDropUnit(view, unit, protectFirst) ? DROPPABLE_UNIT : 0;
      for (let index = unit.start; index < unit.end; index += 1) if (isSummaryEntry(view.entries[index]!)) bits |= SUMMARY_UNIT;
      for (let index = unit.start; index < unit.end; index += 1)
        flags[index] = bits | (view.entries[index]!.source.kind === "history" ? HISTORY_ENTRY : 0);
    }
    return flags;
  }

  it("should give what each unit's rule says, and the same for a redraft whatever its replaced entries changed", () => {
    const summary: Message = {
      role: "user",
      content: "summary",
      metadata: { ctxkit: { source: SUMMARY_SOURCE, summary: { coveredThrough: 1 } } },
    };
    fc.assert(
      fc.property(
        historyArbitrary({ broken: true, maxUnits: 10 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom("pinned", "unpinned", "source", "coverage", "text"),
        fc.integer({ min: 0, max: 3 }),
        (history, picks, change, protectFirst) => {
          const view = createTestView([...history.slice(0, 2), summary, ...history.slice(2)]);
          expect([...unitDropFlags(view, protectFirst)]).toEqual(expectedFlags(view, protectFirst));
          // A strategy's replacement of the same shape: the redraft keeps the units, and its flags must follow the change.
          const entries = [...view.entries];
          for (const pick of picks) {
            const index = pick % entries.length;
            const entry = entries[index]!;
            const message = entry.message;
            const replaced =
              change === "pinned"
                ? { ...entry, message: { ...message, metadata: { ...message.metadata, pinned: true } } as Message }
                : change === "unpinned"
                  ? { message: { ...message, metadata: {} } as Message, tokens: entry.tokens, source: entry.source }
                  : change === "source"
                    ? { ...entry, source: entry.source.kind === "history" ? { kind: "history" as const, index: 0 } : entry.source }
                    : change === "coverage" && entry.source.kind === "synthetic"
                      ? {
                          ...entry,
                          message: { ...summary, metadata: { ctxkit: { source: SUMMARY_SOURCE, summary: { coveredThrough: 10_000 } } } },
                        }
                      : { ...entry };
            entries[index] = replaced;
          }
          const redrafted = redraftEntries(view, entries);
          expect([...unitDropFlags(redrafted, protectFirst)]).toEqual(expectedFlags(redrafted, protectFirst));
        },
      ),
      { numRuns: 300 },
    );
  });
});
