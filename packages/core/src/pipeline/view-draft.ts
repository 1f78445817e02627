// Building view drafts, and the single place that encodes invariant 5 (what may be dropped or altered).
import { isInstruction, isPinned, type Message } from "../messages/message.js";
import { findToolUnits } from "../units/find-tool-units.js";
import type { ToolUnit } from "../units/tool-unit.js";
import type { ViewDraft, ViewEntry } from "./strategy.js";

/** Builds an immutable draft in O(n). Entries that are not frozen yet are copied before freezing. */
export function createViewDraft(entries: readonly ViewEntry[]): ViewDraft {
  const frozenEntries = Object.freeze(entries.map((entry) => (Object.isFrozen(entry) ? entry : Object.freeze({ ...entry }))));
  let tokens = 0;
  let latestUserIndex = -1;
  frozenEntries.forEach((entry, index) => {
    tokens += entry.tokens;
    // A synthetic user message (a summary) is not the user's latest word.
    if (entry.message.role === "user" && entry.source.kind === "history") latestUserIndex = index;
  });
  const units = Object.freeze(findToolUnits(frozenEntries.map((entry) => entry.message)).map((unit) => Object.freeze(unit)));
  const lastUnit = units[units.length - 1];
  const currentTurnStart = latestUserIndex >= 0 ? latestUserIndex : (lastUnit?.start ?? 0);
  return Object.freeze({ entries: frozenEntries, tokens, units, latestUserIndex, currentTurnStart });
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
  const isFixed = isInstruction(entry.message) || isPinned(entry.message);
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
  if (entry.source.kind !== "synthetic") return false;
  const summary = entry.message.metadata?.ctxkit?.["summary"] as { coveredThrough?: unknown } | undefined;
  if (typeof summary?.coveredThrough !== "number") return false;
  for (let position = view.currentTurnStart; position < view.entries.length; position += 1) {
    const source = view.entries[position]!.source;
    if (source.kind === "history") return summary.coveredThrough >= source.index;
  }
  return false;
}

/** A unit is kept or dropped whole, so it may be dropped only when every entry in it may be. */
export function canDropUnit(view: ViewDraft, unit: ToolUnit, protectFirst: number): boolean {
  for (let index = unit.start; index < unit.end; index += 1) {
    if (!isProtectedEntry(view, index, protectFirst).canDrop) return false;
  }
  return true;
}

/**
 * Marks a history message a strategy shortened. It is deliberately not `metadata.ctxkit`: that key
 * means "synthesized by ctxkit" (invariant 2), and a shortened message still comes from the history.
 */
export interface ContextEdit {
  /** The strategy that last shortened the message. */
  readonly strategy: string;
  /** Tokens of the message before any strategy shortened it. */
  readonly originalTokens: number;
}

export function findContextEdit(message: Message): ContextEdit | undefined {
  const edit = message.metadata?.["ctxkitEdit"];
  return typeof edit === "object" && edit !== null ? (edit as ContextEdit) : undefined;
}

/**
 * A new entry with the same source, holding `message` (marked with `metadata.ctxkitEdit`) as a
 * frozen copy, its tokens counted by `countMessage`. The input entry and message are left untouched.
 */
export function replaceEntryMessage(
  entry: ViewEntry,
  message: Message,
  strategy: string,
  countMessage: (message: Message) => number,
): ViewEntry {
  const originalTokens = findContextEdit(entry.message)?.originalTokens ?? entry.tokens;
  const edit: ContextEdit = { strategy, originalTokens };
  const marked = freezeCopy({ ...message, metadata: { ...message.metadata, ctxkitEdit: edit } }) as Message;
  return Object.freeze({ message: marked, tokens: countMessage(marked), source: entry.source });
}

// Deep-freezes without freezing anything the caller still owns: frozen values are shared, the rest copied.
function freezeCopy(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(freezeCopy));
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = freezeCopy(child);
  return Object.freeze(copy);
}
