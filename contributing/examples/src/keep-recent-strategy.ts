// keep-recent: every tool result but the latest few becomes a one-line note, oldest first, until the view fits.
import { createViewDraft, isProtectedEntry, reachFor, replaceEntryMessage, type Strategy, type ViewEntry } from "@ctxkit/core/kit";

export function keepRecent(options: { keep?: number } = {}): Strategy {
  const keep = options.keep ?? 3;
  return {
    name: "keep-recent",
    apply(view, context) {
      const results = view.entries.flatMap((entry, index) => (entry.message.role === "tool" ? [index] : []));
      const entries: ViewEntry[] = [...view.entries];
      let tokens = view.tokens;
      for (const index of results.slice(0, Math.max(0, results.length - keep))) {
        if (tokens <= reachFor(context)) break;
        const entry = entries[index]!;
        // Only history results not shortened yet, and only where invariant 5 lets a strategy alter the entry.
        if (entry.source.kind !== "history" || entry.edit !== undefined || entry.message.role !== "tool") continue;
        if (!isProtectedEntry(view, index, context.protectFirst).canAlter) continue;
        const content = `[result of ${entry.message.tool_call_id} removed to save context]`;
        const note = replaceEntryMessage(entry, { ...entry.message, content }, "keep-recent", context.countMessage);
        if (note.tokens >= entry.tokens) continue;
        entries[index] = note;
        tokens += note.tokens - entry.tokens;
      }
      // The tool message stays, with its id: the call it answers keeps its result, and the unit stays whole.
      return tokens === view.tokens ? { view, applied: false } : { view: createViewDraft(entries), applied: true };
    },
  };
}
