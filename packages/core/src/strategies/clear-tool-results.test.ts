import { describe, expect, it } from "vitest";
import {
  createTestContext,
  createTestView,
  pinnedMessage,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import { isSynthetic, type Message } from "../messages/message.js";
import type { ViewDraft } from "../pipeline/strategy.js";
import { clearToolResults } from "./clear-tool-results.js";

const BIG_OUTPUT = "line of build output\n".repeat(50);

/** A task, `count` tool units with big outputs, and a closing user message. */
function toolHistory(count: number, options: { latestUserLast?: boolean } = {}): Message[] {
  const units = Array.from({ length: count }, (_, index) => [
    toolCallMessage(`call_${index}`),
    toolResultMessage(`call_${index}`, BIG_OUTPUT),
  ]);
  return options.latestUserLast === false
    ? [userMessage("task"), ...units.flat()]
    : [userMessage("task"), ...units.flat(), userMessage("thanks")];
}

/** Target 0 (clear all it can) in a budget that holds every cleared unit: nothing is left for a truncation to drop. */
const roomyContext = (options: { target?: number } = {}) => createTestContext({ ...options, budget: 1_000_000 });

function clearedIndices(view: ViewDraft): number[] {
  return view.entries.flatMap((entry, index) => (entry.edit === undefined ? [] : [index]));
}

describe("clearToolResults", () => {
  describe("keepRecent", () => {
    it("should keep the 5 most recent results by default and clear the older ones, oldest first", async () => {
      const view = createTestView(toolHistory(7));
      const result = await clearToolResults().apply(view, roomyContext());
      expect(result.applied).toBe(true);
      expect(clearedIndices(result.view)).toEqual([2, 4]);
    });

    it("should keep as many recent results as asked", async () => {
      const result = await clearToolResults({ keepRecent: 2 }).apply(createTestView(toolHistory(4)), roomyContext());
      expect(clearedIndices(result.view)).toEqual([2, 4]);
    });

    it("should clear every eligible result with keepRecent: 0, including the current turn's (regression: 0 meant 'protect all' elsewhere)", async () => {
      const result = await clearToolResults({ keepRecent: 0 }).apply(
        createTestView(toolHistory(3, { latestUserLast: false })),
        roomyContext(),
      );
      expect(clearedIndices(result.view)).toEqual([2, 4, 6]);
    });

    it("should reject a negative or fractional keepRecent", () => {
      expect(() => clearToolResults({ keepRecent: -1 })).toThrow(ContextConfigError);
      expect(() => clearToolResults({ keepRecent: 1.5 })).toThrow(ContextConfigError);
    });
  });

  describe("placeholder", () => {
    it("should say how many tokens the result had, keep the id and name, and mark the edit", async () => {
      const view = createTestView(toolHistory(1));
      const result = await clearToolResults({ keepRecent: 0 }).apply(view, roomyContext());
      const cleared = result.view.entries[2]!;
      expect(cleared.message).toEqual({
        role: "tool",
        tool_call_id: "call_0",
        name: "bash",
        content: `[tool result cleared to save context: ${view.entries[2]!.tokens} tokens]`,
      });
      expect(cleared.edit).toEqual({ strategy: "clear-tool-results", originalTokens: view.entries[2]!.tokens });
      expect(isSynthetic(cleared.message)).toBe(false);
      expect(cleared.source).toEqual({ kind: "history", index: 2 });
      expect(Object.isFrozen(cleared.message)).toBe(true);
    });

    it("should list the identifiers the result named and its first error line, so what it was about stays in the view", async () => {
      const output = [
        "Compiling lib/spotter/transcripts/session.ex",
        "warning: variable session_id is unused",
        "** (CompileError) lib/spotter_web/router.ex:42: undefined function handleRequest/2",
        "the build failed with 1 error, see Spotter.Repo for details",
      ].join("\n");
      const view = createTestView([
        userMessage("build"),
        toolCallMessage("a"),
        toolResultMessage("a", `${output}\n`.repeat(3)),
        userMessage("next"),
      ]);
      const result = await clearToolResults({ keepRecent: 0 }).apply(view, roomyContext());
      expect(result.view.entries[2]!.message.content).toBe(
        `[tool result cleared to save context: ${view.entries[2]!.tokens} tokens; ` +
          "first error: ** (CompileError) lib/spotter_web/router.ex:42: undefined function handleRequest/2; " +
          "it named: lib/spotter/transcripts/session.ex, session_id, CompileError, lib/spotter_web/router.ex, Spotter.Repo]",
      );
    });

    it("should list at most maxIdentifiers identifiers and say how many more there were, or none with 0", async () => {
      const output = Array.from({ length: 30 }, (_, index) => `src/module_${index}/file_${index}.ts`).join("\n");
      const view = createTestView([userMessage("list"), toolCallMessage("a"), toolResultMessage("a", output), userMessage("next")]);
      const capped = await clearToolResults({ keepRecent: 0, maxIdentifiers: 2 }).apply(view, roomyContext());
      expect(capped.view.entries[2]!.message.content).toBe(
        `[tool result cleared to save context: ${view.entries[2]!.tokens} tokens; it named: src/module_0/file_0.ts, src/module_1/file_1.ts and 28 more]`,
      );
      const bare = await clearToolResults({ keepRecent: 0, maxIdentifiers: 0 }).apply(view, roomyContext());
      expect(bare.view.entries[2]!.message.content).toBe(`[tool result cleared to save context: ${view.entries[2]!.tokens} tokens]`);
    });

    it("should leave out, with skipShownIdentifiers, the identifiers a newer result still shows, and only those", async () => {
      const padding = "padding line\n".repeat(40);
      const older = `src/shared/config.ts\nsrc/only_old/reader.ts\n${padding}`;
      const newer = `src/shared/config.ts\nsrc/only_new/writer.ts\n${padding}`;
      const view = createTestView([
        userMessage("read"),
        toolCallMessage("a"),
        toolResultMessage("a", older),
        toolCallMessage("b"),
        toolResultMessage("b", newer),
        userMessage("next"),
      ]);
      const skipping = await clearToolResults({ keepRecent: 1, skipShownIdentifiers: true }).apply(view, roomyContext());
      expect(skipping.view.entries[2]!.message.content).toBe(
        `[tool result cleared to save context: ${view.entries[2]!.tokens} tokens; it named: src/only_old/reader.ts]`,
      );
      const listing = await clearToolResults({ keepRecent: 1 }).apply(view, roomyContext());
      expect(listing.view.entries[2]!.message.content).toContain("src/shared/config.ts, src/only_old/reader.ts");
      // The newest result names the shared path in turn, since nothing after it does.
      const all = await clearToolResults({ keepRecent: 0, skipShownIdentifiers: true }).apply(view, roomyContext());
      expect(all.view.entries[4]!.message.content).toContain("src/shared/config.ts, src/only_new/writer.ts");
    });

    it("should use a given text or function", async () => {
      const view = createTestView(toolHistory(2));
      const fixed = await clearToolResults({ keepRecent: 0, placeholder: "[gone]" }).apply(view, roomyContext());
      const computed = await clearToolResults({
        keepRecent: 0,
        placeholder: (tokens, message) => `[${tokens} of ${message.tool_call_id}]`,
      }).apply(view, roomyContext());
      expect(fixed.view.entries[2]!.message.content).toBe("[gone]");
      expect(computed.view.entries[2]!.message.content).toBe(`[${view.entries[2]!.tokens} of call_0]`);
    });

    it("should leave results the placeholder would not shorten", async () => {
      const view = createTestView([userMessage("task"), toolCallMessage("a"), toolResultMessage("a", "ok"), userMessage("next")]);
      const result = await clearToolResults({ keepRecent: 0 }).apply(view, roomyContext());
      expect(result).toEqual({ view, applied: false });
      expect(result.view).toBe(view);
    });
  });

  describe("idempotence", () => {
    it("should return the same draft, not applied, when every eligible result is already cleared", async () => {
      const strategy = clearToolResults({ keepRecent: 0 });
      const once = await strategy.apply(createTestView(toolHistory(2)), roomyContext());
      const twice = await strategy.apply(once.view, roomyContext());
      expect(twice.applied).toBe(false);
      expect(twice.view).toBe(once.view);
    });
  });

  describe("target", () => {
    it("should stop clearing as soon as the view is at or below the target", async () => {
      const view = createTestView(toolHistory(4));
      const target = view.tokens - 1;
      const result = await clearToolResults({ keepRecent: 0 }).apply(view, roomyContext({ target }));
      expect(clearedIndices(result.view)).toEqual([2]);
      expect(result.view.tokens).toBeLessThanOrEqual(target);
    });
  });

  describe("protections", () => {
    it("should never clear a pinned result", async () => {
      const history = toolHistory(2);
      history[2] = pinnedMessage(history[2]!);
      const result = await clearToolResults({ keepRecent: 0 }).apply(createTestView(history), roomyContext());
      expect(clearedIndices(result.view)).toEqual([4]);
      expect(result.view.entries[2]!.message).toEqual(history[2]);
    });

    it("should leave the input draft as it was", async () => {
      const view = createTestView(toolHistory(3));
      const before = structuredClone(view.entries);
      await clearToolResults({ keepRecent: 0 }).apply(view, roomyContext());
      expect(view.entries).toEqual(before);
    });
  });

  it("should leave a synthetic repair result alone, since a trailing unit's are rebuilt on every request (regression)", async () => {
    const view = createTestView(
      [userMessage("go"), toolCallMessage("a", "b"), toolResultMessage("a", "x ".repeat(300))],
      [
        { kind: "history", index: 0 },
        { kind: "history", index: 1 },
        { kind: "synthetic", origin: "repair" },
      ],
    );
    const result = await clearToolResults({ keepRecent: 0, placeholder: "" }).apply(view, roomyContext());
    expect(result).toEqual({ view, applied: false });
  });

  describe("units no view within the budget can hold", () => {
    it("should leave the results of old units that cannot fit even cleared to a truncation, and clear the current turn's", async () => {
      // Ten old units, then a current turn of two units: at a budget of 60 estimated tokens only the newest entries fit.
      const history: Message[] = [
        ...toolHistory(10, { latestUserLast: false }),
        userMessage("now this"),
        toolCallMessage("call_now_1"),
        toolResultMessage("call_now_1", BIG_OUTPUT),
        toolCallMessage("call_now_2"),
        toolResultMessage("call_now_2", BIG_OUTPUT),
      ];
      const view = createTestView(history);
      const result = await clearToolResults({ keepRecent: 0 }).apply(view, createTestContext({ budget: 60 }));
      const cleared = clearedIndices(result.view);
      // The current turn's results are cleared though its unit alone is over the budget: nothing may drop them.
      expect(cleared).toContain(history.length - 3);
      expect(cleared).toContain(history.length - 1);
      // The oldest results, which a truncation drops anyway, are left whole.
      expect(cleared).not.toContain(2);
      expect(result.view.entries[2]!.message.content).toBe(BIG_OUTPUT);
      // With room for every cleared unit, all of them are cleared.
      const roomy = await clearToolResults({ keepRecent: 0 }).apply(view, roomyContext());
      expect(clearedIndices(roomy.view)).toHaveLength(12);
    });

    it("should leave, with truncateFollows, the results of old units that cannot fit the target even cleared, and no others", async () => {
      const history = toolHistory(10);
      const view = createTestView(history);
      // Room in the budget for every cleared unit, in the target for the newest few only.
      const context = createTestContext({ budget: 1_000_000, target: 60 });
      const safe = await clearToolResults({ keepRecent: 0 }).apply(view, context);
      const planned = await clearToolResults({ keepRecent: 0, truncateFollows: true }).apply(view, context);
      expect(clearedIndices(safe.view).length).toBeGreaterThan(clearedIndices(planned.view).length);
      // What it clears is the newest end, which a truncation to the target keeps.
      expect(clearedIndices(planned.view)).toEqual(clearedIndices(safe.view).slice(-clearedIndices(planned.view).length));
      expect(clearedIndices(planned.view).length).toBeGreaterThan(0);
    });
  });
});
