// offload-tool-results: swaps a large tool result in the view for a short reference the agent can resolve with `retrieve_tool_result`.
import * as z from "zod/mini";
import { buildOnFirstUse } from "../build-on-first-use.js";
import type { ContentPart, ToolMessage } from "../messages/message.js";
import { parseConfig } from "../modules/parse-config.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft, findContextEdit, isProtectedEntry, replaceEntryMessage } from "../pipeline/view-draft.js";
import { reachFor } from "../pipeline/reach-for.js";
import { RETRIEVE_TOOL_RESULT } from "../tools/tool-names.js";

const NAME = "offload-tool-results";

export interface OffloadToolResultsOptions {
  /** Results of at least this many tokens are offloaded. Default 1 000. */
  minTokens?: number;
  /** The newest results that stay in the view, whatever their size. Default 1. */
  keepRecent?: number;
  /** Characters of the result's start kept in the reference, so the agent knows what it is. Default 200. */
  previewChars?: number;
}

/**
 * The options checked: unknown keys and bad values are refused, defaults filled in. Built on first use: the default
 * pipeline does not run this strategy, so a process that never makes one never builds it.
 */
export const optionsSchema = buildOnFirstUse(() =>
  z.strictObject({
    minTokens: z._default(z.int().check(z.positive()), 1_000),
    keepRecent: z._default(z.int().check(z.nonnegative()), 1),
    previewChars: z._default(z.int().check(z.nonnegative()), 200),
  }),
);

function textOf(content: string | ContentPart[]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : `[${part.type}]`)).join("\n");
}

/**
 * The reference that stands in the view for an offloaded result. It names the result's history index
 * beside its call id, because real sessions repeat a call id in a later turn: the pair identifies
 * exactly one result.
 */
export function offloadReference(message: ToolMessage, tokens: number, previewChars: number, historyIndex: number): string {
  const text = textOf(message.content);
  const preview = text.length > previewChars ? `${text.slice(0, previewChars)}…` : text;
  const call = JSON.stringify({ tool_call_id: message.tool_call_id, index: historyIndex });
  return `[tool result offloaded: ${tokens} tokens, ${text.length} characters. It starts: ${JSON.stringify(preview)}. Call ${RETRIEVE_TOOL_RESULT} with ${call} to read all of it.]`;
}

/**
 * The history keeps every result whole (it is the manager's store), so offloading copies nothing:
 * the reference names the call id, and `retrieve_tool_result` reads the result back from the history.
 * Oldest first, until the view is at or below the target.
 */
export function offloadToolResults(options?: OffloadToolResultsOptions): Strategy {
  const { minTokens, keepRecent, previewChars } = parseConfig(NAME, optionsSchema(), options ?? {});

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const toolPositions: number[] = [];
      view.entries.forEach((entry, position) => entry.message.role === "tool" && toolPositions.push(position));
      let entries: ViewEntry[] | undefined;
      let tokens = view.tokens;
      for (const position of toolPositions.slice(0, Math.max(0, toolPositions.length - keepRecent))) {
        if (tokens <= reachFor(context)) break;
        const entry = view.entries[position]!;
        if (entry.source.kind !== "history" || entry.tokens < minTokens || findContextEdit(entry) !== undefined) continue;
        if (!isProtectedEntry(view, position, context.protectFirst).canAlter) continue;
        const message = entry.message as ToolMessage;
        const offloaded = replaceEntryMessage(
          entry,
          { ...message, content: offloadReference(message, entry.tokens, previewChars, entry.source.index) },
          NAME,
          context.countMessage,
        );
        if (offloaded.tokens >= entry.tokens) continue;
        entries ??= [...view.entries];
        entries[position] = offloaded;
        tokens += offloaded.tokens - entry.tokens;
      }
      return entries === undefined ? { view, applied: false } : { view: createViewDraft(entries), applied: true };
    },
  };
}
