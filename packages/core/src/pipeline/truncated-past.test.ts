import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestContext, createTestView } from "../../test/strategy-context.js";
import { historyPieces, viewOf } from "../../test/truncation-views.js";
import { FateAttribution } from "../engine/fate-attribution.js";
import type { Message } from "../messages/message.js";
import { clearToolResults } from "../strategies/clear-tool-results.js";
import { shortenToFit } from "../strategies/shorten-to-fit.js";
import { trimLongText } from "../strategies/trim-long-text.js";
import { truncate } from "../strategies/truncate.js";
import { runPipeline } from "./run-pipeline.js";
import type { Strategy, StrategyContext, ViewDraft } from "./strategy.js";
import {
  type DraftEntries,
  declareTruncatedPastRole,
  draftWithoutTruncatedPast,
  entryKindOf,
  truncatedPastRoleOf,
  withTruncatedPast,
} from "./truncated-past.js";
import { DROPPABLE_UNIT, elidedRunOf, SUMMARY_UNIT, unitDropFlags } from "./view-draft.js";

/**
 * Turns of a question and an answer, some answers past a trim's limit: the text a truncation's reach is counted in
 * (results may all be cleared, so they count nothing toward it), which puts the reach inside a history. With
 * `pinEvery`, every so many questions are pinned: units no step may drop, right after many a left-out run.
 */
const exchanges = fc
  .tuple(fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 2, maxLength: 30 }), fc.constantFrom(0, 2, 3, 5))
  .map(([lengths, pinEvery]) =>
    lengths.flatMap((length, turn): Message[] => [
      {
        role: "user",
        content: `step ${turn}: look at src/app/module-${turn}.ts`,
        ...(pinEvery > 0 && turn % pinEvery === 0 ? { metadata: { pinned: true } } : {}),
      },
      { role: "assistant", content: `src/app/module-${turn}.ts ${"reads each line and ".repeat(length)}` },
    ]),
  );

/** A tool unit whose call is pinned: it is never dropped, but its results may be cleared, naming what newer ones show. */
const pinnedCall = fc.integer({ min: 0, max: 9 }).map((file): Message[] => [
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: `pinned_${file}`, type: "function", function: { name: "read", arguments: `{"path":"src/app/module-${file}.ts"}` } }],
    metadata: { pinned: true },
  },
  {
    role: "tool",
    tool_call_id: `pinned_${file}`,
    content: `src/app/module-${file}.ts src/app/shared-${file}.ts ${"line of code ".repeat(40)}`,
  },
]);

const cases = fc.record({
  parts: fc.array(fc.oneof({ arbitrary: historyPieces, weight: 2 }, { arbitrary: exchanges, weight: 3 }), { minLength: 4, maxLength: 30 }),
  /** A pinned call among the parts, at this part's place. */
  pinnedCallAt: fc.option(fc.tuple(pinnedCall, fc.integer({ min: 0, max: 30 })), { nil: undefined }),
  /** Which shortening steps come before the truncation. */
  steps: fc.constantFrom("both", "clear", "trim"),
  budgetPerMille: fc.integer({ min: 2, max: 60 }),
  targetShare: fc.integer({ min: 0, max: 100 }),
  forced: fc.boolean(),
  protectFirst: fc.integer({ min: 0, max: 3 }),
  truncateProtectFirst: fc.integer({ min: 0, max: 4 }),
  keepRecent: fc.integer({ min: 0, max: 3 }),
  skipShownIdentifiers: fc.boolean(),
  maxChars: fc.integer({ min: 20, max: 400 }),
  noteIdentifiers: fc.constantFrom(0, 20, 200),
  /** The truncation fails: what follows it is handed the whole view. */
  truncationFails: fc.boolean(),
});

type Case = typeof cases extends fc.Arbitrary<infer Value> ? Value : never;

/** The default pipeline's kinds of strategies with a case's options, a shortening step after the truncation. */
function pipeline(options: Case): Strategy[] {
  const truncation = truncate({ noteIdentifiers: options.noteIdentifiers, protectFirst: options.truncateProtectFirst });
  const failing = declareTruncatedPastRole(
    {
      name: "truncate",
      apply: () => {
        throw new Error("the truncation failed");
      },
    },
    truncatedPastRoleOf(truncation)!,
  );
  const clear = clearToolResults({
    keepRecent: options.keepRecent,
    truncateFollows: true,
    maxIdentifiers: 20,
    skipShownIdentifiers: options.skipShownIdentifiers,
  });
  const trim = trimLongText({ maxChars: options.maxChars, truncateFollows: true });
  const shortening = options.steps === "both" ? [clear, trim] : options.steps === "clear" ? [clear] : [trim];
  return [...shortening, options.truncationFails ? failing : truncation, shortenToFit({ maxTextChars: 80 })];
}

/** What a compaction of `draft` gives: the view whole, each step's figures, and who dropped or added what. */
async function compaction(draft: ViewDraft, strategies: readonly Strategy[], context: StrategyContext) {
  const attribution = new FateAttribution();
  const onApplied = (strategy: string, from: ViewDraft, to: ViewDraft) => attribution.note(strategy, from, to);
  const result = await runPipeline(draft, strategies, context, { onApplied });
  const view = withTruncatedPast(result.view);
  return {
    view,
    entries: view.entries,
    tokens: view.tokens,
    steps: result.steps.map(({ durationMs: _durationMs, ...step }) => step),
    removed: attribution.removed,
    added: [...attribution.addedBy.values()],
  };
}

describe("draftWithoutTruncatedPast", () => {
  it("should give the views, step figures and fates of the whole draft, over two compactions", async () => {
    let elided = 0;
    await fc.assert(
      fc.asyncProperty(cases, async (options) => {
        const parts = [...options.parts];
        if (options.pinnedCallAt !== undefined) parts.splice(options.pinnedCallAt[1], 0, options.pinnedCallAt[0]);
        const history = parts.flat();
        const view = viewOf(history);
        const strategies = pipeline(options);
        const budget = Math.max(1, Math.floor((view.tokens * options.budgetPerMille) / 1_000));
        const first = {
          ...createTestContext({ history, budget, target: Math.floor((budget * options.targetShare) / 100) }),
          forced: options.forced,
          protectFirst: options.protectFirst,
        };
        // The second compaction, at half the budget, starts from the first one's view: its note, its cleared results.
        const second = { ...first, budget: Math.max(1, Math.floor(first.budget / 2)), target: Math.floor(first.target / 2) };
        let whole: ViewDraft = view;
        for (const context of [first, second]) {
          const plan = { target: context.target, budget: context.budget, protectFirst: context.protectFirst };
          const draft = draftWithoutTruncatedPast(whole.entries, strategies, plan);
          const run = draft === undefined ? undefined : elidedRunOf(draft);
          if (draft !== undefined && run !== undefined) {
            elided += 1;
            // Right after the run, a unit the truncation drops: its note stands where the oldest drop stood.
            const flags = unitDropFlags(draft, Math.max(context.protectFirst, options.truncateProtectFirst));
            expect(flags[run.at]! & (DROPPABLE_UNIT | SUMMARY_UNIT)).toBe(DROPPABLE_UNIT);
          }
          // A history not made into entries yet (every entry the message at its own index) gives the same draft from its record.
          if (whole.entries.every((entry, position) => entry.source.kind === "history" && entry.source.index === position)) {
            const { entries } = whole;
            const record: DraftEntries = {
              length: entries.length,
              at: (position) => entries[position]!,
              messageAt: (position) => entries[position]!.message,
              tokensAt: (position) => entries[position]!.tokens,
              kindAt: (position) => entryKindOf(entries[position]!.message, entries[position]!.pinned === true),
            };
            const fromRecord = draftWithoutTruncatedPast(record, strategies, plan);
            expect(
              fromRecord === undefined
                ? undefined
                : { draft: fromRecord, run: { ...elidedRunOf(fromRecord)!, entries: elidedRunOf(fromRecord)!.entries } },
            ).toEqual(draft === undefined ? undefined : { draft, run: { ...run!, entries: run!.entries } });
          }
          const expected = await compaction(whole, strategies, context);
          const left = await compaction(draft ?? whole, strategies, context);
          expect({ ...left, view: undefined }).toEqual({ ...expected, view: undefined });
          whole = expected.view;
        }
      }),
      { numRuns: 500 },
    );
    // The property says something only where a run was left out: about a third of the 1,000 compactions here.
    expect(elided).toBeGreaterThan(200);
  }, 60_000);

  it("should clear a pinned call's old result as the whole view says, the results of the past a truncation drops counted", async () => {
    // The pinned call is kept, but its result may be cleared: whether is decided by the newest results (kept recent)
    // and what they show (left out of its placeholder), which all stand among the old turns the truncation drops.
    const history: Message[] = [
      { role: "system", content: "You are an agent." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "pinned", type: "function", function: { name: "read", arguments: '{"path":"src/app/module-3.ts"}' } }],
        metadata: { pinned: true },
      },
      { role: "tool", tool_call_id: "pinned", content: `src/app/module-3.ts src/app/shared-3.ts ${"line of code ".repeat(40)}` },
    ];
    for (let turn = 0; turn < 80; turn += 1) {
      history.push({ role: "user", content: `step ${turn}: ${"look at the parser ".repeat(8)}` });
      if (turn % 20 === 10) {
        history.push(
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: `read_${turn}`, type: "function", function: { name: "read", arguments: "{}" } }],
          },
          { role: "tool", tool_call_id: `read_${turn}`, content: `src/app/module-3.ts ${"line of code ".repeat(20)}` },
        );
      }
      history.push({ role: "assistant", content: `done ${turn}: ${"the parser reads each line ".repeat(8)}` });
    }
    const view = createTestView(history);
    const turnTokens = view.entries[3]!.tokens + view.entries[4]!.tokens;
    const strategies = [clearToolResults({ keepRecent: 3, truncateFollows: true }), truncate({ noteIdentifiers: 20 })];
    const context = createTestContext({ history, budget: 8 * turnTokens, target: 4 * turnTokens });
    const plan = { target: context.target, budget: context.budget, protectFirst: 0 };
    const draft = draftWithoutTruncatedPast(view.entries, strategies, plan) ?? view;
    expect(await compaction(draft, strategies, context)).toEqual(await compaction(view, strategies, context));
  });

  it("should leave out the old units a truncation drops, count their tokens, and put them back in place", () => {
    const history: Message[] = [
      { role: "system", content: "You are an agent." },
      ...Array.from({ length: 200 }, (_, turn) => [
        { role: "user" as const, content: `task ${turn}: ${"check the parser ".repeat(10)}` },
        { role: "assistant" as const, content: `done ${turn}: ${"the parser reads each line ".repeat(10)}` },
      ]).flat(),
    ];
    const view = createTestView(history);
    const turnTokens = view.entries[1]!.tokens + view.entries[2]!.tokens;
    const strategies = [trimLongText({ truncateFollows: true }), truncate({ noteIdentifiers: 20 })];
    const draft = draftWithoutTruncatedPast(view.entries, strategies, {
      target: 10 * turnTokens,
      budget: 20 * turnTokens,
      protectFirst: 0,
    })!;
    const run = elidedRunOf(draft)!;
    // The system message stays; the truncation keeps ten turns and its note reads forty more, so the oldest are left out.
    expect(run.at).toBe(1);
    expect(run.entries[0]).toBe(view.entries[1]);
    expect(run.entries.length).toBeGreaterThan(200);
    expect(run.historyMessages).toBe(run.entries.length);
    expect(draft.tokens).toBe(view.tokens);
    expect(draft.entries.length + run.entries.length).toBe(view.entries.length);
    expect(withTruncatedPast(draft).entries).toEqual(view.entries);
    // A strategy that declares nothing is handed the whole view.
    expect(
      draftWithoutTruncatedPast(view.entries, [{ name: "custom", apply: (whole) => ({ view: whole, applied: false }) }, ...strategies], {
        target: 10 * turnTokens,
        budget: 20 * turnTokens,
        protectFirst: 0,
      }),
    ).toBeUndefined();
  });
});
