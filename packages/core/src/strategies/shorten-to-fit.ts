// shorten-to-fit: the step before a refusal. Shortens every message but the latest tool unit and the latest user
// message to a stub, oldest first, so a turn too long for the budget is shortened rather than refused.
import { z } from "zod";
import type { Message, ToolCall } from "../messages/message.js";
import { parseConfig } from "../modules/parse-config.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { reachFor } from "../pipeline/reach-for.js";
import { findContextEdit, isProtectedEntry, redraftEntries, replaceEntryMessage } from "../pipeline/view-draft.js";
import { contentText, digestToolResult } from "./tool-result-digest.js";
import { trimText } from "./trim-long-text.js";

const NAME = "shorten-to-fit";

export interface ShortenToFitOptions {
  /** A text (or a text part) longer than this keeps its head and tail only. Default 400. */
  maxTextChars?: number;
  /** A tool-call argument string longer than this keeps its head only. Default 120. */
  maxArgumentChars?: number;
  /** How many of a cleared tool result's identifiers its stub still lists. Default 25. */
  maxIdentifiers?: number;
}

/** The options checked: unknown keys and bad values are refused, defaults filled in. */
export const optionsSchema = z.strictObject({
  maxTextChars: z.number().int().min(10).default(400),
  maxArgumentChars: z.number().int().min(10).default(120),
  maxIdentifiers: z.number().int().nonnegative().default(25),
});

/** `value` with every string longer than `maxChars` cut to its head and a marker; keys untouched. */
function shortenValue(value: unknown, maxChars: number): unknown {
  if (typeof value === "string")
    return value.length > maxChars ? `${value.slice(0, maxChars)}[… ${value.length - maxChars} characters cut]` : value;
  if (Array.isArray(value)) return value.map((item) => shortenValue(item, maxChars));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shortenValue(child, maxChars)]));
  return value;
}

function shortenArguments(call: ToolCall, maxChars: number): ToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.function.arguments);
  } catch {
    // Not JSON: cut as a text would be, so it stays what it was, a string.
    return call.function.arguments.length > maxChars
      ? { ...call, function: { ...call.function, arguments: call.function.arguments.slice(0, maxChars) } }
      : call;
  }
  const shortened = JSON.stringify(shortenValue(parsed, maxChars));
  return shortened.length < call.function.arguments.length ? { ...call, function: { ...call.function, arguments: shortened } } : call;
}

const isHistoryEntry = (entry: ViewEntry): entry is ViewEntry & { source: { kind: "history" } } => entry.source.kind === "history";

export function shortenToFit(options?: ShortenToFitOptions): Strategy {
  const { maxTextChars, maxArgumentChars, maxIdentifiers } = parseConfig(NAME, optionsSchema, options ?? {});
  /**
   * The stub of `entry`, always made from the original history message, so the same settings give the
   * same stub on every compaction (a stub is never shortened again by the settings that made it).
   */
  function shorten(
    entry: ViewEntry & { source: { kind: "history" } },
    context: StrategyContext,
    settings: Required<ShortenToFitOptions>,
  ): Message {
    const message = context.history[entry.source.index] ?? entry.message;
    const shortenText = (text: string): string =>
      text.length > settings.maxTextChars
        ? trimText(text, Math.floor(settings.maxTextChars * 0.6), Math.floor(settings.maxTextChars * 0.2))
        : text;
    if (message.role === "tool") {
      const originalTokens = findContextEdit(entry)?.originalTokens ?? entry.tokens;
      const digest =
        settings.maxIdentifiers === 0 ? "" : digestToolResult(contentText(message.content), { maxIdentifiers: settings.maxIdentifiers });
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
        tool_calls: message.tool_calls.map((call) => shortenArguments(call, settings.maxArgumentChars)),
      } as Message;
    }
    return { ...entry.message, content } as Message;
  }

  const hard = { maxTextChars: 60, maxArgumentChars: 40, maxIdentifiers: 0 };

  /** One oldest-first pass over what may be shortened, until `limit`; `again` also re-shortens this strategy's own stubs. */
  function pass(
    view: ViewDraft,
    context: StrategyContext,
    limit: number,
    settings: Required<ShortenToFitOptions>,
    again: boolean,
  ): ViewDraft | undefined {
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
      const shortened = replaceEntryMessage(entry, shorten(entry, context, settings), NAME, context.countMessage);
      if (shortened.tokens >= entry.tokens) continue;
      entries ??= [...view.entries];
      entries[index] = shortened;
      tokens += shortened.tokens - entry.tokens;
    }
    return entries === undefined ? undefined : redraftEntries(view, entries);
  }

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      let result = pass(view, context, reachFor(context), { maxTextChars, maxArgumentChars, maxIdentifiers }, false) ?? view;
      // Still over the budget: rather than refuse, stubs as short as they go, this strategy's own included.
      if (result.tokens > context.budget) result = pass(result, context, context.budget, hard, true) ?? result;
      return result === view ? { view, applied: false } : { view: result, applied: true };
    },
  };
}
