// What the inspect page shows, as plain data: built in Node, embedded in the page as JSON, drawn by its script.
import type { CompactionReason, Message } from "@ctxkit/core";
import type { CompactionSummary, MessageFateRun, ViewExplanation, ViewForm, ViewReason } from "@ctxkit/core/kit";
import { textOfContent } from "@ctxkit/core/kit";
import { CATEGORIES, CATEGORY_LABELS, type CategoryTokens } from "./view-categories.js";

/** How much of each message's text the page carries (and searches). */
export const TEXT_LIMIT = 2_000;

/** One model call of the timeline: the view asked for before an assistant message. */
export interface InspectRequest {
  /** History messages before this request. */
  readonly at: number;
  /** The view's tokens by category (`categories` order); all zero when refused. */
  readonly tokens: CategoryTokens;
  readonly total: number;
  readonly viewLength: number;
  /** The manager refused the view (`ContextBudgetError`): even the smallest one did not fit. */
  readonly refused: boolean;
  /** The leading messages (and their tokens) identical to the previous request's view: where the cached prefix ended. */
  readonly sharedPrefix: { readonly messages: number; readonly tokens: number };
  /** Whether the manager compacted on this request. */
  readonly compacted: boolean;
  /** Index into `compactions` of the receipt this request left, when it left one. */
  readonly compaction?: number;
}

/** One compaction receipt, with the view before and after it where the timeline knows them. */
export interface InspectCompaction {
  readonly receipt: CompactionSummary & { readonly fates: readonly MessageFateRun[] };
  /** The request (index into `requests`) that compacted, when the timeline holds it. */
  readonly request?: number;
  /** Tokens by category of the view it started from (the previous view plus the messages added since) and of the view it made. */
  readonly before?: CategoryTokens;
  readonly after?: CategoryTokens;
}

/** A history message with its form in the next view and why. */
export interface InspectMessage {
  readonly index: number;
  readonly role: Message["role"];
  /** The message's text (tool calls as `name(arguments)`), cut at `TEXT_LIMIT` characters. */
  readonly text: string;
  readonly tokens: number;
  readonly viewTokens: number;
  /** `unknown` when the manager cannot explain its views. */
  readonly form: ViewForm | "unknown";
  readonly why: ViewReason | "unknown";
  readonly strategy?: string;
}

export interface InspectData {
  readonly title: string;
  readonly source: { readonly kind: "transcript" | "journal" | "postgres" | "redis"; readonly label: string; readonly format?: string };
  readonly configuration: string;
  readonly budget: number;
  /** Category keys and labels, in the order of every `tokens` array. */
  readonly categories: readonly { readonly key: string; readonly label: string }[];
  readonly requests: readonly InspectRequest[];
  /** Set when the timeline was derived by a replay rather than recorded: says how. */
  readonly timelineNote?: string;
  readonly compactions: readonly InspectCompaction[];
  /** Where the receipts come from. */
  readonly compactionsNote: string;
  /** The next request's view, from explainView, when the manager can explain it. */
  readonly next?: {
    readonly tokens: number;
    readonly budget: number;
    readonly compaction?: CompactionReason;
    readonly sharedPrefix: { readonly messages: number; readonly tokens: number };
    readonly totals: CategoryTokens;
  };
  readonly messages: readonly InspectMessage[];
  readonly textLimit: number;
}

export const CATEGORY_LIST = CATEGORIES.map((key) => ({ key, label: CATEGORY_LABELS[key] }));

/** What a person searches a message for: its text, and its calls' names and arguments. */
export function searchableText(message: Message): string {
  const parts = [textOfContent(message.content, "\n")];
  if (message.role === "assistant")
    for (const call of message.tool_calls ?? []) parts.push(`${call.function.name}(${call.function.arguments})`);
  const text = parts.filter((part) => part !== "").join("\n");
  return text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text;
}

/** The message list: every history message, with its form and reason from explainView when there is one. */
export function explainMessages(
  history: readonly Message[],
  explanation: ViewExplanation | undefined,
  tokensOf: (message: Message) => number,
): InspectMessage[] {
  return history.map((message, index) => {
    const explained = explanation?.messages[index];
    const base = { index, role: message.role, text: searchableText(message) };
    if (explained === undefined) return { ...base, tokens: tokensOf(message), viewTokens: 0, form: "unknown", why: "unknown" };
    return {
      ...base,
      tokens: explained.tokens,
      viewTokens: explained.viewTokens,
      form: explained.form,
      why: explained.why,
      ...(explained.strategy === undefined ? {} : { strategy: explained.strategy }),
    };
  });
}

/** The next request's figures from an explanation, in the page's category order. */
export function nextView(explanation: ViewExplanation): NonNullable<InspectData["next"]> {
  return {
    tokens: explanation.tokens,
    budget: explanation.budget,
    ...(explanation.compaction === undefined ? {} : { compaction: explanation.compaction }),
    sharedPrefix: explanation.sharedPrefix,
    totals: CATEGORIES.map((category) => explanation.totals[category]),
  };
}
