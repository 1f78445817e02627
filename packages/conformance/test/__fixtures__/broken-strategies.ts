// Pipeline strategies each broken in exactly one way, for describeStrategy's own tests.
import { truncate } from "@ctxkit/core";
import { createViewDraft, isProtectedEntry, type Strategy, type ViewEntry } from "@ctxkit/core/kit";

const keep = (name: string, filter: (entry: ViewEntry, index: number, entries: readonly ViewEntry[]) => boolean): Strategy => ({
  name,
  apply: (view) => {
    const entries = view.entries.filter((entry, index) => filter(entry, index, view.entries));
    return { view: createViewDraft(entries), applied: entries.length !== view.entries.length };
  },
});

/** Drops every system message. */
export const dropsInstructions = keep("drops-instructions", (entry) => entry.message.role !== "system");

/** Drops the first tool result of every unit, leaving its call unanswered. */
export const splitsUnits = keep(
  "splits-units",
  (entry, index, entries) => !(entry.message.role === "tool" && entries[index - 1]?.message.role === "assistant"),
);

/** Drops one droppable unit, a different one on each call: the same draft gives different views. */
export const dropsDifferentUnits: Strategy = (() => {
  let calls = 0;
  return {
    name: "drops-different-units",
    apply: (view, context) => {
      const droppable = view.units.filter((unit) => {
        for (let index = unit.start; index < unit.end; index += 1)
          if (!isProtectedEntry(view, index, context.protectFirst).canDrop) return false;
        return true;
      });
      if (droppable.length === 0) return { view, applied: false };
      const dropped = droppable[calls++ % droppable.length]!;
      const entries = view.entries.filter((_, index) => index < dropped.start || index >= dropped.end);
      return { view: createViewDraft(entries), applied: true };
    },
  };
})();

/** Upper-cases assistant text in place of a shortening, and records no edit. */
export const rewritesSilently: Strategy = {
  name: "rewrites-silently",
  apply: (view, context) => {
    const entries = view.entries.map((entry) => {
      if (entry.message.role !== "assistant" || typeof entry.message.content !== "string" || entry.message.content === "") return entry;
      const message = { ...entry.message, content: `${entry.message.content.toUpperCase()}!` };
      return { ...entry, message, tokens: context.countMessage(message) };
    });
    return { view: createViewDraft(entries), applied: true };
  },
};

/**
 * Truncates, and keeps a log of its runs as one list under one state key, rewritten on each run: two
 * workers of a shared session rewrite the same key, and the second one's write is refused.
 */
export const rewritesOneSharedKey: Strategy = {
  name: "rewrites-one-shared-key",
  apply: async (view, context) => {
    const result = await truncate().apply(view, context);
    const runs = context.state.get<number[]>("runs") ?? [];
    await context.state.set("runs", [...runs, result.view.tokens]);
    return result;
  },
};
