// shorten-to-fit: the step before a refusal. Shortens every message but the latest tool unit and the latest user
// message to a stub, oldest first, so a turn too long for the budget is shortened rather than refused.
import * as z from "zod/mini";
import type { Message, ToolCall } from "../messages/message.js";
import { parseConfig } from "../modules/parse-config.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { reachFor } from "../pipeline/reach-for.js";
import { canDropUnit, findContextEdit, isProtectedEntry, redraftEntries, replaceEntryMessage } from "../pipeline/view-draft.js";
import { isSummaryEntry } from "../messages/summary-coverage.js";
import { identifiersOf } from "./message-identifiers.js";
import { contentText, digestToolResult } from "./tool-result-digest.js";
import { cutText, trimText } from "./trim-long-text.js";

const NAME = "shorten-to-fit";
/** Stubs kept per message: its stub, bare stub and shortest stub, for a budget or two. */
const KNOWN_STUBS_PER_MESSAGE = 6;

export interface ShortenToFitOptions {
  /** A text (or a text part) longer than this keeps its head and tail only. Default 400. */
  maxTextChars?: number;
  /** A tool-call argument string longer than this keeps its head only. Default 120. */
  maxArgumentChars?: number;
  /** How many of a cleared tool result's identifiers its stub still lists. Default 25. */
  maxIdentifiers?: number;
  /**
   * With it, a stub lists at most one identifier per this many tokens of the budget (and `maxIdentifiers`
   * at most): stubs sized for a large budget would crowd a small one. A whole number. Default: no such bound.
   */
  budgetTokensPerIdentifier?: number;
  /**
   * Set when a `truncate` (with no `protectFirst` of its own above the manager's) runs right after this
   * strategy (the default pipeline's does): old units that truncation drops whatever their stubs are left
   * as they are rather than stubbed first. Found only where the stubs of the newer units alone pass the
   * budget, so every step of this strategy and the view truncation leaves are exactly as without it. Default false.
   */
  truncateFollows?: boolean;
}

/** A stub made before, and what it was made from and for. */
interface KnownStub {
  readonly counter: TokenCounter;
  readonly original: Message | undefined;
  readonly key: string;
  readonly message: Message;
  readonly tokens: number;
}

/**
 * How short one pass makes its stubs. `terse`: texts and argument values keep only their head and an ellipsis,
 * a result only its size, for a turn too long for even the bare stubs.
 */
type StubSettings = Required<Omit<ShortenToFitOptions, "truncateFollows" | "budgetTokensPerIdentifier">> & { readonly terse?: boolean };

/** The options checked: unknown keys and bad values are refused, defaults filled in. */
export const optionsSchema = z.strictObject({
  maxTextChars: z._default(z.int().check(z.gte(10)), 400),
  maxArgumentChars: z._default(z.int().check(z.gte(10)), 120),
  maxIdentifiers: z._default(z.int().check(z.nonnegative()), 25),
  budgetTokensPerIdentifier: z.optional(z.int().check(z.positive())),
  truncateFollows: z._default(z.boolean(), false),
});

/** `value` with every string longer than `maxChars` cut to its head and a marker (an ellipsis when `terse`); keys untouched. */
function shortenValue(value: unknown, maxChars: number, terse: boolean): unknown {
  if (typeof value === "string")
    return value.length <= maxChars
      ? value
      : terse
        ? `${value.slice(0, maxChars)}…`
        : `${value.slice(0, maxChars)}[… ${value.length - maxChars} characters cut]`;
  if (Array.isArray(value)) return value.map((item) => shortenValue(item, maxChars, terse));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shortenValue(child, maxChars, terse)]));
  return value;
}

function shortenArguments(call: ToolCall, maxChars: number, terse: boolean): ToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.function.arguments);
  } catch {
    // Not JSON: cut as a text would be, so it stays what it was, a string.
    return call.function.arguments.length > maxChars
      ? { ...call, function: { ...call.function, arguments: call.function.arguments.slice(0, maxChars) } }
      : call;
  }
  const shortened = JSON.stringify(shortenValue(parsed, maxChars, terse));
  return shortened.length < call.function.arguments.length ? { ...call, function: { ...call.function, arguments: shortened } } : call;
}

const isHistoryEntry = (entry: ViewEntry): entry is ViewEntry & { source: { kind: "history" } } => entry.source.kind === "history";

export function shortenToFit(options?: ShortenToFitOptions): Strategy {
  const { maxTextChars, maxArgumentChars, maxIdentifiers, budgetTokensPerIdentifier, truncateFollows } = parseConfig(
    NAME,
    optionsSchema,
    options ?? {},
  );
  /** `maxIdentifiers`, or fewer for a budget too small to hold that many per stub. */
  const identifiersFor = (budget: number, most: number): number =>
    budgetTokensPerIdentifier === undefined || most === 0
      ? most
      : Math.min(most, Math.max(1, Math.floor(budget / budgetTokensPerIdentifier)));
  /**
   * The stub of `entry`, always made from the original history message, so the same settings give the
   * same stub on every compaction (a stub is never shortened again by the settings that made it).
   */
  function shorten(entry: ViewEntry & { source: { kind: "history" } }, context: StrategyContext, settings: StubSettings): Message {
    const message = context.history[entry.source.index] ?? entry.message;
    const shortenText = (text: string): string =>
      settings.terse === true
        ? cutText(text, settings.maxTextChars)
        : text.length > settings.maxTextChars
          ? trimText(text, Math.floor(settings.maxTextChars * 0.6), Math.floor(settings.maxTextChars * 0.2))
          : text;
    if (message.role === "tool") {
      const originalTokens = findContextEdit(entry)?.originalTokens ?? entry.tokens;
      if (settings.terse === true) return { ...entry.message, content: `[cleared: ${originalTokens} tokens]` } as Message;
      const digest =
        settings.maxIdentifiers === 0
          ? ""
          : digestToolResult(contentText(message.content), {
              maxIdentifiers: identifiersFor(context.budget, settings.maxIdentifiers),
              identifiers: identifiersOf(message),
            });
      return {
        ...entry.message,
        content: `[tool result cleared to save context: ${originalTokens} tokens${digest === "" ? "" : `; ${digest}`}]`,
      } as Message;
    }
    const content =
      typeof message.content === "string"
        ? shortenText(message.content)
        : message.content === null
          ? null
          : message.content.map((part) =>
              part.type === "text" && typeof part.text === "string" ? { ...part, text: shortenText(part.text) } : part,
            );
    if (message.role === "assistant" && message.tool_calls !== undefined) {
      return {
        ...entry.message,
        content,
        tool_calls: message.tool_calls.map((call) => shortenArguments(call, settings.maxArgumentChars, settings.terse === true)),
      } as Message;
    }
    return { ...entry.message, content } as Message;
  }

  const hard = { maxTextChars: 60, maxArgumentChars: 40, maxIdentifiers: 0 };
  /** The shortest stubs: what a turn of hundreds of units still needs to fit a small budget. */
  const shortest = { maxTextChars: 20, maxArgumentChars: 10, maxIdentifiers: 0, terse: true };
  /**
   * The settings of the passes after the first, while the view is over the budget: bare stubs, then the
   * shortest, oldest first, so a refusal comes only when even the shortest stubs cannot fit. Not fewer
   * identifiers first: that spreads the loss over newer stubs, which the next calls use more (the cost
   * bench's retention at 12k fell by 0.4 to 2.5 points on four transcripts; bare first kept it).
   */
  const shorterStubs: readonly StubSettings[] = [hard, shortest];

  /**
   * Stubs made before, by the entry's message: a stub depends only on that message, the history message it
   * comes from, the settings, the identifiers the budget allows, a result's original tokens and the counter,
   * so a turn too long for the budget is not stubbed, digested and counted again at every compaction.
   */
  const knownStubs = new WeakMap<Message, KnownStub[]>();

  /** `entry` replaced by its stub under `settings`, made once and reused. */
  function stubEntry(entry: ViewEntry & { source: { kind: "history" } }, context: StrategyContext, settings: StubSettings): ViewEntry {
    const original = context.history[entry.source.index];
    const identifiers = settings.maxIdentifiers === 0 ? 0 : identifiersFor(context.budget, settings.maxIdentifiers);
    const originalTokens = entry.message.role === "tool" ? (findContextEdit(entry)?.originalTokens ?? entry.tokens) : 0;
    const key = `${settings.maxTextChars}/${settings.maxArgumentChars}/${identifiers}/${originalTokens}${settings.terse === true ? "/terse" : ""}`;
    const known = knownStubs.get(entry.message) ?? [];
    const stub = known.find(
      (candidate) => candidate.counter === context.counter && candidate.original === original && candidate.key === key,
    );
    if (stub !== undefined) return replaceEntryMessage(entry, stub.message, NAME, () => stub.tokens);
    const made = replaceEntryMessage(entry, shorten(entry, context, settings), NAME, context.countMessage);
    // A few per message: its stub and the shorter ones, for a budget or two.
    known.push({ counter: context.counter, original, key, message: made.message, tokens: made.tokens });
    knownStubs.set(entry.message, known.slice(-KNOWN_STUBS_PER_MESSAGE));
    return made;
  }

  /** One oldest-first pass over what may be shortened, until `limit`; `again` also re-shortens this strategy's own stubs. */
  function pass(view: ViewDraft, context: StrategyContext, limit: number, settings: StubSettings, again: boolean): ViewDraft | undefined {
    // The latest tool unit is what the model acts on next: it stays whole, as does everything after it.
    const lastToolUnit = view.units.findLast((unit) => unit.kind === "tool");
    const untouchableFrom = lastToolUnit?.start ?? view.entries.length;
    let entries: ViewEntry[] | undefined;
    let tokens = view.tokens;
    for (let index = 0; index < untouchableFrom; index += 1) {
      if (tokens <= limit) break;
      const entry = view.entries[index]!;
      if (!isHistoryEntry(entry) || (!again && findContextEdit(entry)?.strategy === NAME)) continue;
      if (!isProtectedEntry(view, index, context.protectFirst).canAlter) continue;
      const shortened = stubEntry(entry, context, settings);
      if (shortened.tokens >= entry.tokens) continue;
      entries ??= [...view.entries];
      entries[index] = shortened;
      tokens += shortened.tokens - entry.tokens;
    }
    return entries === undefined ? undefined : redraftEntries(view, entries);
  }

  /** What the passes leave of the entry at `index` when none stops early: its stub, then its bare and its shortest stub, each when shorter. */
  function finalForm(view: ViewDraft, index: number, context: StrategyContext, untouchableFrom: number): ViewEntry {
    const entry = view.entries[index]!;
    if (index >= untouchableFrom || !isHistoryEntry(entry) || !isProtectedEntry(view, index, context.protectFirst).canAlter) return entry;
    let current: ViewEntry & { source: { kind: "history" } } = entry;
    if (findContextEdit(entry)?.strategy !== NAME) {
      const stub = stubEntry(entry, context, { maxTextChars, maxArgumentChars, maxIdentifiers });
      if (stub.tokens < current.tokens) current = stub as typeof current;
    }
    for (const settings of shorterStubs) {
      const shorter = stubEntry(current, context, settings);
      if (shorter.tokens < current.tokens) current = shorter as typeof current;
    }
    return current;
  }

  /**
   * The view the passes and the truncation after them would leave, without stubbing the old units that
   * truncation drops; undefined when that cannot be known without stubbing them. Walking back from the
   * newest unit, once the final forms of the units walked pass the budget, the first pass cannot stop
   * before its end (its total never falls below theirs), so each later pass runs and cannot stop either, and
   * truncation, which drops the oldest droppable units while the view is over the target, drops every
   * droppable unit before them (a summary's unit aside: truncation keeps it until nothing else is left).
   */
  function stubsTruncationKeeps(view: ViewDraft, context: StrategyContext): ViewDraft | undefined {
    const lastToolUnit = view.units.findLast((unit) => unit.kind === "tool");
    const untouchableFrom = lastToolUnit?.start ?? view.entries.length;
    const entries = [...view.entries];
    let tokens = 0;
    let unitIndex = view.units.length - 1;
    for (; unitIndex >= 0 && tokens <= context.budget; unitIndex -= 1) {
      const unit = view.units[unitIndex]!;
      for (let index = unit.start; index < unit.end; index += 1) {
        entries[index] = finalForm(view, index, context, untouchableFrom);
        tokens += entries[index]!.tokens;
      }
    }
    if (tokens <= context.budget) return undefined;
    for (; unitIndex >= 0; unitIndex -= 1) {
      const unit = view.units[unitIndex]!;
      const isDropped = canDropUnit(view, unit, context.protectFirst) && !view.entries.slice(unit.start, unit.end).some(isSummaryEntry);
      if (isDropped) continue;
      for (let index = unit.start; index < unit.end; index += 1) entries[index] = finalForm(view, index, context, untouchableFrom);
    }
    return redraftEntries(view, entries);
  }

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const kept = truncateFollows ? stubsTruncationKeeps(view, context) : undefined;
      if (kept !== undefined) return kept === view ? { view, applied: false } : { view: kept, applied: true };
      let result = pass(view, context, reachFor(context), { maxTextChars, maxArgumentChars, maxIdentifiers }, false) ?? view;
      // Still over the budget: rather than refuse, bare stubs, then the shortest, this strategy's own included.
      for (const settings of shorterStubs) {
        if (result.tokens <= context.budget) break;
        result = pass(result, context, context.budget, settings, true) ?? result;
      }
      return result === view ? { view, applied: false } : { view: result, applied: true };
    },
  };
}
