// importance: scores each unit (recency, tool errors, user corrections, file edits) and drops the least important whole units first.
import * as z from "zod/mini";
import { buildOnFirstUse } from "../build-on-first-use.js";
import type { Message } from "../messages/message.js";
import { parseConfig } from "../modules/parse-config.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft } from "../pipeline/strategy.js";
import type { ToolUnit } from "../units/tool-unit.js";
import { canDropUnit, createViewDraft } from "../pipeline/view-draft.js";

const NAME = "importance";

export interface ImportanceWeights {
  /** Added in proportion to how recent the unit is: the newest unit gets all of it, the oldest none. Default 1. */
  recency?: number;
  /** Added to a unit whose tool result reports an error: the lesson is worth more than a routine output. Default 1. */
  toolError?: number;
  /** Added to a user message that corrects the assistant ("no, …", "don't …", "actually …"). Default 2. */
  userCorrection?: number;
  /** Added to a unit whose tool call writes or edits a file. Default 1. */
  fileEdit?: number;
}

export interface ImportanceOptions {
  weights?: ImportanceWeights;
}

/**
 * The options checked: unknown keys and bad values are refused, defaults filled in. Built on first use: the default
 * pipeline does not run this strategy, so a process that never makes one never builds it.
 */
export const optionsSchema = buildOnFirstUse(() => {
  // zod numbers are finite, so a weight is a finite number ≥ 0.
  const weight = z.number().check(z.nonnegative());
  return z.strictObject({
    // `prefault`, not `default`: a missing `weights` is parsed as `{}`, so each weight gets its own default.
    weights: z.prefault(
      z.strictObject({
        recency: z._default(weight, 1),
        toolError: z._default(weight, 1),
        userCorrection: z._default(weight, 2),
        fileEdit: z._default(weight, 1),
      }),
      {},
    ),
  });
});

const TOOL_ERROR = /\b(error|exception|traceback|failed|failure|fatal|panic|denied|not found|exit (code|status) [1-9])\b/i;
const USER_CORRECTION =
  /^\s*(no\b|nope\b|wrong\b|stop\b|don'?t\b|do not\b|not that\b|that'?s (not|wrong)\b|actually\b|instead\b|i said\b|please don'?t\b)/i;
const FILE_EDIT_TOOL = /(write|edit|patch|replace|create|insert|apply|rename|delete|move|str_replace)/i;

function textOf(message: Message): string {
  if (typeof message.content === "string") return message.content;
  if (message.content === null) return "";
  return message.content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : "")).join("\n");
}

function scoreUnit(view: ViewDraft, unit: ToolUnit, unitIndex: number, weights: Required<ImportanceWeights>): number {
  const lastIndex = view.units.length - 1;
  let score = lastIndex <= 0 ? weights.recency : (weights.recency * unitIndex) / lastIndex;
  let hasError = false;
  let hasCorrection = false;
  let hasEdit = false;
  for (let position = unit.start; position < unit.end; position += 1) {
    const message = view.entries[position]!.message;
    if (message.role === "tool" && !hasError) hasError = TOOL_ERROR.test(textOf(message));
    if (message.role === "user" && !hasCorrection) hasCorrection = USER_CORRECTION.test(textOf(message));
    if (message.role === "assistant" && !hasEdit)
      hasEdit = (message.tool_calls ?? []).some((call) => FILE_EDIT_TOOL.test(call.function.name));
  }
  if (hasError) score += weights.toolError;
  if (hasCorrection) score += weights.userCorrection;
  if (hasEdit) score += weights.fileEdit;
  return score;
}

/**
 * Drops droppable units in order of score, lowest first (the older on a tie), until the view is at or
 * below the target. The same draft always gives the same result: scores read only the draft.
 */
export function importance(options?: ImportanceOptions): Strategy {
  const { weights } = parseConfig(NAME, optionsSchema(), options ?? {});

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const candidates = view.units
        .map((unit, index) => ({ unit, index, score: scoreUnit(view, unit, index, weights) }))
        .filter(({ unit }) => canDropUnit(view, unit, context.protectFirst))
        .sort((first, second) => first.score - second.score || first.index - second.index);
      const dropped = new Set<number>();
      let tokens = view.tokens;
      for (const { unit, index } of candidates) {
        if (tokens <= context.target) break;
        dropped.add(index);
        for (let position = unit.start; position < unit.end; position += 1) tokens -= view.entries[position]!.tokens;
      }
      if (dropped.size === 0) return { view, applied: false };
      const kept = view.units.flatMap((unit, index) => (dropped.has(index) ? [] : view.entries.slice(unit.start, unit.end)));
      return { view: createViewDraft(kept), applied: true };
    },
  };
}
