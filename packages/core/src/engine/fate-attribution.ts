// Which strategy took each history message out of the view, and which put each synthetic entry in: what a view's entries do not say.
import type { ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import type { FateSources } from "./message-fates.js";

/** Kept across compactions of one view, since a message dropped by an earlier one is still absent from the next. */
export class FateAttribution implements FateSources {
  readonly removedBy = new Map<number, string>();
  readonly addedBy = new Map<unknown, string>();

  /** What `strategy` changed from `before` to `after` (the pipeline's `onApplied`). */
  note(strategy: string, before: ViewDraft, after: ViewDraft): void {
    // Most strategies only shorten entries in place: then nothing left or came in, and no set is built.
    if (hasSameSources(before.entries, after.entries)) return;
    const kept = new Set<number>();
    const present = new Set<unknown>();
    for (const entry of after.entries) {
      if (entry.source.kind === "history") kept.add(entry.source.index);
    }
    for (const entry of before.entries) {
      if (entry.source.kind === "history" && !kept.has(entry.source.index)) this.removedBy.set(entry.source.index, strategy);
      else if (entry.source.kind === "synthetic") present.add(entry.message);
    }
    for (const entry of after.entries) {
      if (entry.source.kind === "synthetic" && !present.has(entry.message)) this.addedBy.set(entry.message, strategy);
    }
  }

  /** Forgets synthetic entries no longer in the view, so the map does not grow with every summary. */
  keepOnly(entries: readonly ViewEntry[]): void {
    const present = new Set<unknown>(entries.map((entry) => entry.message));
    for (const message of this.addedBy.keys()) if (!present.has(message)) this.addedBy.delete(message);
  }

  /** A copy a preview can change without touching this one. */
  clone(): FateAttribution {
    const copy = new FateAttribution();
    for (const [index, strategy] of this.removedBy) copy.removedBy.set(index, strategy);
    for (const [message, strategy] of this.addedBy) copy.addedBy.set(message, strategy);
    return copy;
  }

  reset(): void {
    this.removedBy.clear();
    this.addedBy.clear();
  }
}

function hasSameSources(before: readonly ViewEntry[], after: readonly ViewEntry[]): boolean {
  if (before.length !== after.length) return false;
  for (let position = 0; position < before.length; position += 1) {
    const first = before[position]!;
    const second = after[position]!;
    if (first.source === second.source) continue;
    if (first.source.kind !== "history" || second.source.kind !== "history" || first.source.index !== second.source.index) return false;
  }
  return true;
}
