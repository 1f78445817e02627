// microcompact: clears the results of tools that can simply be run again (reads, searches, listings), and does it after a pause too.
import * as z from "zod/mini";
import { buildOnFirstUse } from "../build-on-first-use.js";
import type { ToolMessage } from "../messages/message.js";
import { durationMsSchema } from "../modules/duration-ms.js";
import { parseConfig } from "../modules/parse-config.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft, findContextEdit, isProtectedEntry, replaceEntryMessage } from "../pipeline/view-draft.js";
import { reachFor } from "../pipeline/reach-for.js";
import { findToolNames } from "./tool-names.js";

const NAME = "microcompact";

/** Decides whether a tool result is stale once newer ones exist: cheap to get again, so not worth its tokens. */
export type ToolResultClassifier = (toolName: string, message: ToolMessage) => boolean;

export interface MicrocompactOptions {
  /** How many of the newest tool results stay, whatever their tool. Default 3. */
  keepRecent?: number;
  /**
   * After this long without a request the manager runs this strategy on its own, even under the
   * threshold: a provider's prompt cache has expired by then, so changing the prefix costs nothing
   * more. `null` turns the idle pass off. Default 300 000 (5 minutes).
   */
  idleMs?: number | null;
  /** Which results may be cleared. Default: tools whose names read, search, list or fetch. */
  isClearable?: ToolResultClassifier;
}

const RERUNNABLE = /(read|view|cat|grep|glob|search|find|list|ls|fetch|get|open|show|head|tail|stat|query|lookup)/i;

/** The default classifier: tools that look things up, whose output the agent can ask for again. */
export const isRerunnableToolResult: ToolResultClassifier = (toolName) => RERUNNABLE.test(toolName);

/**
 * The options checked: unknown keys and bad values are refused, defaults filled in. Built on first use: the default
 * pipeline does not run this strategy, so a process that never makes one never builds it.
 */
export const optionsSchema = buildOnFirstUse(() =>
  z.strictObject({
    keepRecent: z._default(z.int().check(z.nonnegative()), 3),
    idleMs: z._default(z.nullable(durationMsSchema), 300_000),
    // A function given to `default` is called for the value, so the classifier is returned by one.
    isClearable: z._default(
      z.custom<ToolResultClassifier>((value) => typeof value === "function", {
        message: "must be a function (toolName, message) => boolean",
      }),
      () => isRerunnableToolResult,
    ),
  }),
);

function placeholderFor(toolName: string, originalTokens: number): string {
  return `[stale ${toolName || "tool"} result cleared: ${originalTokens} tokens; run the tool again if it is needed]`;
}

export function microcompact(options?: MicrocompactOptions): Strategy {
  const { keepRecent, idleMs, isClearable } = parseConfig(NAME, optionsSchema(), options ?? {});

  function apply(view: ViewDraft, context: StrategyContext): StrategyResult {
    const names = findToolNames(view);
    const positions = [...names.keys()].sort((first, second) => first - second);
    const clearable = positions.slice(0, Math.max(0, positions.length - keepRecent));
    let entries: ViewEntry[] | undefined;
    let tokens = view.tokens;
    for (const position of clearable) {
      if (tokens <= reachFor(context)) break;
      const entry = view.entries[position]!;
      const message = entry.message as ToolMessage;
      const toolName = names.get(position)!;
      // A synthetic result (a repair notice) is a few tokens, and a trailing unit's are rebuilt on every request: clearing one would not last.
      if (entry.source.kind !== "history" || findContextEdit(entry) !== undefined || !isClearable(toolName, message)) continue;
      if (!isProtectedEntry(view, position, context.protectFirst).canAlter) continue;
      const cleared = replaceEntryMessage(
        entry,
        { ...message, content: placeholderFor(toolName, entry.tokens) },
        NAME,
        context.countMessage,
      );
      if (cleared.tokens >= entry.tokens) continue;
      entries ??= [...view.entries];
      entries[position] = cleared;
      tokens += cleared.tokens - entry.tokens;
    }
    return entries === undefined ? { view, applied: false } : { view: createViewDraft(entries), applied: true };
  }

  return idleMs === null ? { name: NAME, apply } : { name: NAME, apply, idleAfterMs: idleMs };
}
