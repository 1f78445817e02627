// clear-tool-results: replaces older tool results with a short placeholder, keeping units and ids intact.
import * as z from "zod/mini";
import type { ToolMessage } from "../messages/message.js";
import { parseConfig } from "../modules/parse-config.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { findContextEdit, isProtectedEntry, redraftEntries, replaceEntryMessage } from "../pipeline/view-draft.js";
import { leftForTruncation } from "../pipeline/left-for-truncation.js";
import { reachFor } from "../pipeline/reach-for.js";
import { declareTruncatedPastRole } from "../pipeline/truncated-past.js";
import { identifiersOf } from "./message-identifiers.js";
import { contentText, digestToolResult } from "./tool-result-digest.js";

const NAME = "clear-tool-results";

export interface ClearToolResultsOptions {
  /** How many of the most recent tool results stay untouched. `0` clears every eligible result. Default 5. */
  keepRecent?: number;
  /**
   * The text that replaces a result, or a function of the result's original tokens and message. The
   * default names the result's size, its first error line and the identifiers it named (see `listIdentifiers`).
   */
  placeholder?: string | ((originalTokens: number, message: ToolMessage) => string);
  /** How many identifiers the default placeholder lists at most. Default 80. */
  maxIdentifiers?: number;
  /**
   * Set when a `truncate` runs after this strategy in the pipeline (the default pipeline does): results
   * of old units that could not fit the target even cleared are then left for it to drop, rather than
   * cleared (and digested) first. Leave it off when that truncate keeps more leading messages than the
   * manager's `protectFirst` (its own `protectFirst` option). Without it, only units that no view within the
   * budget could hold are left, since the engine truncates any view over the budget. Default false.
   */
  truncateFollows?: boolean;
  /**
   * With it, the default placeholder leaves out the identifiers that a newer tool result of the view still
   * shows (whole, cleared or stubbed), so a path that many results name is listed once, by the newest,
   * rather than in every placeholder. Default false.
   */
  skipShownIdentifiers?: boolean;
}

type Placeholder = (originalTokens: number, message: ToolMessage) => string;

/** The options checked: unknown keys and bad values are refused, defaults filled in. */
export const optionsSchema = z.strictObject({
  keepRecent: z._default(z.int().check(z.nonnegative()), 5),
  placeholder: z.optional(
    z.union([
      z.string(),
      z.custom<Placeholder>((value) => typeof value === "function", {
        message: "must be a string or a function (originalTokens, message) => string",
      }),
    ]),
  ),
  maxIdentifiers: z._default(z.int().check(z.nonnegative()), 80),
  truncateFollows: z._default(z.boolean(), false),
  skipShownIdentifiers: z._default(z.boolean(), false),
});

function defaultPlaceholder(maxIdentifiers: number, isShown?: (identifier: string) => boolean): Placeholder {
  return (originalTokens, message) => {
    const digest =
      maxIdentifiers === 0
        ? ""
        : digestToolResult(contentText(message.content), {
            maxIdentifiers,
            ...(isShown === undefined ? {} : { isShown }),
            // Read once per message: the placeholders of newer results read them for `isShown` already.
            identifiers: identifiersOf(message),
          });
    return `[tool result cleared to save context: ${originalTokens} tokens${digest === "" ? "" : `; ${digest}`}]`;
  };
}

export function clearToolResults(options?: ClearToolResultsOptions): Strategy {
  const {
    keepRecent,
    maxIdentifiers,
    truncateFollows,
    skipShownIdentifiers,
    placeholder: givenPlaceholder,
  } = parseConfig(NAME, optionsSchema, options ?? {});
  const placeholder = givenPlaceholder ?? defaultPlaceholder(maxIdentifiers);
  const placeholderFor = typeof placeholder === "string" ? () => placeholder : placeholder;

  const strategy: Strategy = {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const isResult = (index: number) => view.entries[index]!.message.role === "tool";
      // The newest `keepRecent` results stay: the results before the oldest of them are clearable. Found from the end,
      // so the role of every message of a long view is not read.
      let clearableBefore = view.entries.length;
      for (let kept = 0; kept < keepRecent && clearableBefore > 0; ) {
        clearableBefore -= 1;
        if (isResult(clearableBefore)) kept += 1;
      }
      // A truncation goes to the target, a forced one too (only shortening goes further then).
      const reach = truncateFollows ? context.target : context.budget;
      // A clearable result may be gone by then: it counts nothing toward the entries that stay.
      const floorOf = (index: number) => (index < clearableBefore && isResult(index) ? 0 : view.entries[index]!.tokens);
      const isLeftForTruncation = leftForTruncation(view, { reach, protectFirst: context.protectFirst, floorOf });
      const stopAt = reachFor(context);
      let entries: ViewEntry[] | undefined;
      let tokens = view.tokens;
      // Oldest first: the results furthest back matter least to the model's next step.
      for (let index = 0; index < clearableBefore && tokens > stopAt; index += 1) {
        // Asked first, as the cheapest check and the one that holds for most of a long view's entries.
        if (isLeftForTruncation(index) || !isResult(index)) continue;
        const entry = view.entries[index]!;
        const message = entry.message as ToolMessage;
        // A synthetic result (a repair notice) is a few tokens, and a trailing unit's are rebuilt on every request: clearing one would not last.
        if (entry.source.kind !== "history" || findContextEdit(entry)?.strategy === NAME) continue;
        if (!isProtectedEntry(view, index, context.protectFirst).canAlter) continue;
        const originalTokens = findContextEdit(entry)?.originalTokens ?? entry.tokens;
        const content =
          skipShownIdentifiers && givenPlaceholder === undefined
            ? defaultPlaceholder(maxIdentifiers, shownByNewerResult(view, index))(originalTokens, message)
            : placeholderFor(originalTokens, message);
        const cleared = replaceEntryMessage(entry, { ...message, content }, NAME, context.countMessage);
        if (cleared.tokens >= entry.tokens) continue;
        entries ??= [...view.entries];
        entries[index] = cleared;
        tokens += cleared.tokens - entry.tokens;
      }
      return entries === undefined ? { view, applied: false } : { view: redraftEntries(view, entries), applied: true };
    },
  };
  // Before a truncation it leaves alone what that drops anyway: a compaction need not draft that past for it.
  if (!truncateFollows) return strategy;
  return declareTruncatedPastRole(strategy, {
    kind: "shortens",
    floorOf: (message, tokens) => (message.role === "tool" ? 0 : tokens),
    readBudgets: 0,
  });
}

const lastShownByView = new WeakMap<ViewDraft, { readonly from: number; readonly positions: Map<string, number> }>();

/**
 * Whether an identifier is shown by a tool result of `view` after `index` (whole, cleared or stubbed: each
 * of those forms lists it). Only results count: a text or a tool call is stubbed to its head and tail when
 * the view runs short, which keeps few of its names. One scan of the view per compaction.
 */
function shownByNewerResult(view: ViewDraft, index: number): (identifier: string) => boolean {
  let lastShown = lastShownByView.get(view);
  // Results are cleared oldest first, so the first one asked about is the oldest: nothing before it can be
  // newer than a later one, and the results a truncation drops further back are never read.
  if (lastShown === undefined || lastShown.from > index) {
    const positions = new Map<string, number>();
    for (let position = index + 1; position < view.entries.length; position += 1) {
      const message = view.entries[position]!.message;
      if (message.role !== "tool") continue;
      for (const identifier of identifiersOf(message)) positions.set(identifier, position);
    }
    lastShown = { from: index, positions };
    lastShownByView.set(view, lastShown);
  }
  const shown = lastShown.positions;
  return (identifier) => (shown.get(identifier) ?? -1) > index;
}
