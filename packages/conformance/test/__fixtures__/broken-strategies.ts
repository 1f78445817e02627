// Pipeline strategies each broken in exactly one way, for describeStrategy's own tests.
import { type ContentPart, type Message, truncate } from "@ctxkit/core";
import { createViewDraft, isProtectedEntry, reachFor, replaceEntryMessage, type Strategy, type ViewEntry } from "@ctxkit/core/kit";

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

/**
 * Every image but those the draft must keep becomes a one-line note, oldest first, until the view fits: the
 * contributing guide's recipe for a part-dropping strategy. `imageType` is the part type it looks for.
 */
function dropImagesOfType(name: string, imageType: string): Strategy {
  return {
    name,
    apply(view, context) {
      const entries: ViewEntry[] = [...view.entries];
      let tokens = view.tokens;
      for (const [index, entry] of view.entries.entries()) {
        if (tokens <= reachFor(context)) break;
        const { content } = entry.message;
        if (entry.source.kind !== "history" || !Array.isArray(content) || !content.some((part) => part.type === imageType)) continue;
        if (!isProtectedEntry(view, index, context.protectFirst).canAlter) continue;
        const kept = content.map((part): ContentPart => (part.type === imageType ? { type: "text", text: "[image removed]" } : part));
        const note = replaceEntryMessage(entry, { ...entry.message, content: kept } as Message, name, context.countMessage);
        if (note.tokens >= entry.tokens) continue;
        entries[index] = note;
        tokens += note.tokens - entry.tokens;
      }
      return tokens === view.tokens ? { view, applied: false } : { view: createViewDraft(entries), applied: true };
    },
  };
}

/** A working drop-images: it looks for `image_url` parts, the type ctxkit messages carry. */
export const dropsImages = dropImagesOfType("drop-images", "image_url");

/** Drop-images looking for `input_image` (another API's part type), which no ctxkit message holds: it never applies. */
export const dropsImagesOfAnotherType = dropImagesOfType("drop-images-of-another-type", "input_image");

/** Shortens long content part by part, taking every part for text: a part with no `text` (an image) throws. */
export const trimsPartsAsText: Strategy = {
  name: "trims-parts-as-text",
  apply(view, context) {
    const entries = view.entries.map((entry, index) => {
      const { content } = entry.message;
      if (!Array.isArray(content) || entry.tokens < 200 || !isProtectedEntry(view, index, context.protectFirst).canAlter) return entry;
      const trimmed = content.map((part) => ({ type: "text", text: (part as { text: string }).text.slice(0, 40) }));
      return replaceEntryMessage(entry, { ...entry.message, content: trimmed } as Message, "trims-parts-as-text", context.countMessage);
    });
    const changed = entries.some((entry, index) => entry !== view.entries[index]);
    return changed ? { view: createViewDraft(entries), applied: true } : { view, applied: false };
  },
};

/**
 * "Shortens" every long tool result to a third of its characters, but in characters that cost three tokens
 * each where the output's cost a third of one: fewer characters and bytes, many more tokens.
 */
export const shortensByCharacters: Strategy = {
  name: "shortens-by-characters",
  apply(view, context) {
    const entries = view.entries.map((entry, index) => {
      const { message } = entry;
      if (message.role !== "tool" || typeof message.content !== "string" || message.content.length < 300) return entry;
      if (!isProtectedEntry(view, index, context.protectFirst).canAlter) return entry;
      const content = `${message.content.slice(0, 8)}${"\ua66e".repeat(Math.floor(message.content.length / 3))}`;
      return replaceEntryMessage(entry, { ...message, content }, "shortens-by-characters", context.countMessage);
    });
    const changed = entries.some((entry, index) => entry !== view.entries[index]);
    return changed ? { view: createViewDraft(entries), applied: true } : { view, applied: false };
  },
};

/**
 * Turns every part that is not text into a text part holding the part's `alt` text, which parts do not have:
 * fewer tokens and the text kept, but `{ type: "text" }` with no `text` is a message no manager accepts.
 */
export const corruptsNonTextParts: Strategy = {
  name: "corrupts-non-text-parts",
  apply(view, context) {
    const entries = view.entries.map((entry, index) => {
      const { content } = entry.message;
      if (!Array.isArray(content) || !content.some((part) => part.type !== "text")) return entry;
      if (entry.source.kind !== "history" || !isProtectedEntry(view, index, context.protectFirst).canAlter) return entry;
      const flattened = content.map((part) => (part.type === "text" ? part : { type: "text", text: (part as { alt?: string }).alt }));
      const note = replaceEntryMessage(
        entry,
        { ...entry.message, content: flattened } as Message,
        "corrupts-non-text-parts",
        context.countMessage,
      );
      return note.tokens < entry.tokens ? note : entry;
    });
    const changed = entries.some((entry, index) => entry !== view.entries[index]);
    return changed ? { view: createViewDraft(entries), applied: true } : { view, applied: false };
  },
};
