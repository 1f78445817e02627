// Building view drafts, and the single place that encodes invariant 5 (what may be dropped or altered).
import { isInstruction, isPinned, type Message } from "../messages/message.js";
import { isSummaryEntry, readSummaryCoverage } from "../messages/summary-coverage.js";
import { ToolUnitFinder } from "../units/find-tool-units.js";
import type { ToolUnit } from "../units/tool-unit.js";
import type { ContextEdit, ViewDraft, ViewEntry } from "./strategy.js";

/**
 * Old units a draft leaves out (`truncated-past.ts`): they stood just before the entry at `at`, the draft's tokens
 * count theirs, and only strategies that read nothing a truncation drops are handed such a draft.
 */
export interface ElidedRun {
  readonly at: number;
  /** How many entries the run holds. */
  readonly length: number;
  /** The run's entries, made when first read when they are a history's not made into entries yet. */
  readonly entries: readonly ViewEntry[];
  readonly tokens: number;
  /** How many of `entries` are history messages, as a truncation's note counts them. */
  readonly historyMessages: number;
  /** Their history indexes, as runs of consecutive ones. */
  readonly historyRuns: readonly { readonly from: number; readonly to: number }[];
}

const elidedRuns = new WeakMap<ViewDraft, ElidedRun>();

/** The units `draft` leaves out, when it was made without them. */
export function elidedRunOf(draft: ViewDraft): ElidedRun | undefined {
  return elidedRuns.get(draft);
}

/** Builds an immutable draft in O(n). Entries that are not frozen yet are copied before freezing. */
export function createViewDraft(entries: readonly ViewEntry[]): ViewDraft {
  return buildDraft(entries, undefined);
}

/** The draft of `entries` with `run` left out before `entries[run.at]`: its units and turn are found over `entries`, its tokens count the run's. */
export function createElidedDraft(entries: readonly ViewEntry[], run: ElidedRun): ViewDraft {
  return buildDraft(entries, run);
}

function buildDraft(entries: readonly ViewEntry[], run: ElidedRun | undefined): ViewDraft {
  // One pass over the entries, into arrays of their final length: a long history's first view drafts 200,000 of
  // them. Each message is read here for its unit and whether it is fixed, so `unitDropFlags` does not read it again.
  const frozenEntries = new Array<ViewEntry>(entries.length);
  const fixed = new Uint8Array(entries.length);
  const finder = new ToolUnitFinder();
  let tokens = run?.tokens ?? 0;
  for (let index = 0; index < entries.length; index += 1) {
    const given = entries[index]!;
    const entry = Object.isFrozen(given) ? given : Object.freeze({ ...given });
    frozenEntries[index] = entry;
    tokens += entry.tokens;
    finder.take(entry.message, index);
    if (isFixedEntry(entry)) fixed[index] = 1;
  }
  // Looked for from the end, where it is: not by reading the role of every message of a long view.
  let latestUserIndex = entries.length - 1;
  // A synthetic user message (a summary) is not the user's latest word.
  while (
    latestUserIndex >= 0 &&
    (frozenEntries[latestUserIndex]!.message.role !== "user" || frozenEntries[latestUserIndex]!.source.kind !== "history")
  )
    latestUserIndex -= 1;
  // The units are this call's own array, so they are frozen where they stand.
  const units = finder.finish(entries.length);
  for (const unit of units) Object.freeze(unit);
  const lastUnit = units[units.length - 1];
  const currentTurnStart = latestUserIndex >= 0 ? latestUserIndex : (lastUnit?.start ?? 0);
  const draft: ViewDraft = Object.freeze({
    entries: Object.freeze(frozenEntries),
    tokens,
    units: Object.freeze(units),
    latestUserIndex,
    currentTurnStart,
  });
  fixedByDraft.set(draft, fixed);
  if (run !== undefined) elidedRuns.set(draft, run);
  return draft;
}

/**
 * The draft `createViewDraft(entries)` gives, faster when `entries` is `view.entries` with some entries
 * replaced by entries of the same shape (same source kind, role, tool-call ids and `tool_call_id`: a
 * cleared result, a shortened text): the units and the current turn cannot have moved, so they are
 * kept rather than found again. Any other change builds the draft anew.
 */
export function redraftEntries(view: ViewDraft, entries: readonly ViewEntry[]): ViewDraft {
  // What the view left out, it still leaves out: entries are only replaced in place.
  const run = elidedRuns.get(view);
  if (entries.length !== view.entries.length) return buildDraft(entries, run);
  const frozenEntries: ViewEntry[] = new Array<ViewEntry>(entries.length);
  let tokens = view.tokens;
  let keepsDropRule = true;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index]!;
    const previous = view.entries[index]!;
    // An entry of the draft is frozen already: only a replaced one may need it.
    if (entry === previous) {
      frozenEntries[index] = entry;
      continue;
    }
    if (!hasSameShape(previous, entry)) return buildDraft(entries, run);
    keepsDropRule &&= keepsDropRuleOf(previous, entry);
    tokens += entry.tokens - previous.tokens;
    frozenEntries[index] = Object.isFrozen(entry) ? entry : Object.freeze({ ...entry });
  }
  const draft: ViewDraft = Object.freeze({ ...view, entries: Object.freeze(frozenEntries), tokens });
  // The same units, turn and sources, and no entry newly fixed or freed: what may be dropped has not changed.
  const flags = dropFlagsByDraft.get(view);
  if (flags !== undefined && keepsDropRule) dropFlagsByDraft.set(draft, flags);
  const fixed = fixedByDraft.get(view);
  if (fixed !== undefined && keepsDropRule) fixedByDraft.set(draft, fixed);
  if (run !== undefined) elidedRuns.set(draft, run);
  return draft;
}

/** Whether `canDropUnit` reads `after` as it read `before`: the same source, fixed or not, and a summary's coverage. */
function keepsDropRuleOf(before: ViewEntry, after: ViewEntry): boolean {
  if (before.source !== after.source || isFixedEntry(before) !== isFixedEntry(after)) return false;
  return !isSummaryEntry(before) || readSummaryCoverage(before.message) === readSummaryCoverage(after.message);
}

/** Whether `after` sits in the units and the turns exactly where `before` did. */
function hasSameShape(before: ViewEntry, after: ViewEntry): boolean {
  const first = before.message;
  const second = after.message;
  if (before.source.kind !== after.source.kind || first.role !== second.role) return false;
  if (first.role === "tool") return second.role === "tool" && first.tool_call_id === second.tool_call_id;
  const firstCalls = first.role === "assistant" ? (first.tool_calls ?? []) : [];
  const secondCalls = second.role === "assistant" ? (second.tool_calls ?? []) : [];
  return firstCalls.length === secondCalls.length && firstCalls.every((call, index) => call.id === secondCalls[index]!.id);
}

export interface EntryProtection {
  /** False for system/developer, pinned, the current turn, and the first `protectFirst` history messages. */
  readonly canDrop: boolean;
  /** False for system/developer, pinned, and the latest user message itself. */
  readonly canAlter: boolean;
}

/** Invariant 5, for the entry at `index` of `view`. Every strategy asks here rather than deciding itself. */
export function isProtectedEntry(view: ViewDraft, index: number, protectFirst: number): EntryProtection {
  const entry = view.entries[index];
  if (entry === undefined) throw new RangeError(`No entry at index ${index}; the view has ${view.entries.length}.`);
  const isFixed = isFixedEntry(entry);
  const isProtectedPrefix = entry.source.kind === "history" && entry.source.index < protectFirst;
  return {
    canDrop: !isFixed && !isProtectedPrefix && index < view.currentTurnStart && !standsForCurrentTurn(view, entry),
    canAlter: !isFixed && index !== view.latestUserIndex,
  };
}

/**
 * Whether a synthetic entry (a summary) stands for messages of the current turn, which may be
 * shortened but never dropped: dropping the summary would drop them. A summary declares what it
 * covers in `metadata.ctxkit.summary.coveredThrough`, the last history index it stands for.
 */
function standsForCurrentTurn(view: ViewDraft, entry: ViewEntry): boolean {
  if (!isSummaryEntry(entry)) return false;
  const coveredThrough = readSummaryCoverage(entry.message);
  if (coveredThrough === undefined) return false;
  for (let position = view.currentTurnStart; position < view.entries.length; position += 1) {
    const source = view.entries[position]!.source;
    if (source.kind === "history") return coveredThrough >= source.index;
  }
  return false;
}

/**
 * A unit is kept or dropped whole, so it may be dropped only when every entry in it may be. The same
 * rule as `isProtectedEntry(...).canDrop`, asked without making a result per entry: a truncation asks
 * it for every unit of a long view.
 */
export function canDropUnit(view: ViewDraft, unit: ToolUnit, protectFirst: number): boolean {
  return mayDropUnit(view, unit, protectFirst, (index) => isFixedEntry(view.entries[index]!));
}

/** `canDropUnit`, with whether the entry at a position is fixed given by `isFixed`. */
function mayDropUnit(view: ViewDraft, unit: ToolUnit, protectFirst: number, isFixed: (index: number) => boolean): boolean {
  for (let index = unit.start; index < unit.end; index += 1) {
    const entry = view.entries[index];
    if (entry === undefined) throw new RangeError(`No entry at index ${index}; the view has ${view.entries.length}.`);
    if (index >= view.currentTurnStart || isFixed(index)) return false;
    if (entry.source.kind === "history" ? entry.source.index < protectFirst : standsForCurrentTurn(view, entry)) return false;
  }
  return true;
}

/** A bit of `unitDropFlags`: the entry's unit may be dropped (`canDropUnit`). */
export const DROPPABLE_UNIT = 1;
/** A bit of `unitDropFlags`: the entry's unit holds a summary, which a truncation drops only when nothing else is left. */
export const SUMMARY_UNIT = 2;
/** A bit of `unitDropFlags`: the entry is a history message (not synthetic), as a receipt and a note count them. */
export const HISTORY_ENTRY = 4;

const dropFlagsByDraft = new WeakMap<ViewDraft, { readonly protectFirst: number; readonly flags: Uint8Array }>();
/** For a draft `createViewDraft` made (or a redraft that fixed and freed nothing), 1 at each fixed entry (`isFixedEntry`). */
const fixedByDraft = new WeakMap<ViewDraft, Uint8Array>();

/**
 * For each entry of `view`, the `DROPPABLE_UNIT` and `SUMMARY_UNIT` bits of its unit and its `HISTORY_ENTRY` bit:
 * `canDropUnit` asked once per unit and draft rather than by each strategy of a compaction (a first view asks it
 * for 100,000 units), and kept for a draft `redraftEntries` made without changing what may be dropped or where
 * an entry comes from. The array is shared: read it only.
 */
export function unitDropFlags(view: ViewDraft, protectFirst: number): Uint8Array {
  const cached = dropFlagsByDraft.get(view);
  if (cached !== undefined && cached.protectFirst === protectFirst) return cached.flags;
  const flags = new Uint8Array(view.entries.length);
  // What the draft read of each message when it was made, rather than every message of a long view again.
  const fixed = fixedByDraft.get(view);
  const isFixed = fixed === undefined ? (index: number) => isFixedEntry(view.entries[index]!) : (index: number) => fixed[index] === 1;
  for (const unit of view.units) {
    let bits = mayDropUnit(view, unit, protectFirst, isFixed) ? DROPPABLE_UNIT : 0;
    // Each entry's source read once: whether it is a history message, and whether it is a summary.
    for (let index = unit.start; index < unit.end; index += 1) {
      const entry = view.entries[index]!;
      if (entry.source.kind === "history") flags[index] = HISTORY_ENTRY;
      else if (isSummaryEntry(entry)) bits |= SUMMARY_UNIT;
    }
    for (let index = unit.start; index < unit.end; index += 1) flags[index]! |= bits;
  }
  dropFlagsByDraft.set(view, { protectFirst, flags });
  return flags;
}

/** System and developer messages, and pinned ones (in the message or through the manager): never dropped or altered. */
function isFixedEntry(entry: ViewEntry): boolean {
  return isInstruction(entry.message) || isPinned(entry.message) || entry.pinned === true;
}

/** How a strategy shortened this entry's message, or `undefined`: read from the entry, never from the message. */
export function findContextEdit(entry: ViewEntry): ContextEdit | undefined {
  return entry.edit;
}

/**
 * A new entry with the same source, holding `message` as a frozen copy, its tokens counted by
 * `countMessage`, and the edit recorded on the entry. The input entry and message are left untouched.
 */
export function replaceEntryMessage(
  entry: ViewEntry,
  message: Message,
  strategy: string,
  countMessage: (message: Message) => number,
): ViewEntry {
  const edit: ContextEdit = { strategy, originalTokens: entry.edit?.originalTokens ?? entry.tokens };
  const frozen = freezeCopy(message) as Message;
  return Object.freeze({ message: frozen, tokens: countMessage(frozen), source: entry.source, edit });
}

// Deep-freezes without freezing anything the caller still owns: frozen values are shared, the rest copied.
function freezeCopy(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(freezeCopy));
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = freezeCopy(child);
  return Object.freeze(copy);
}
