// Broken modules whose flaw shows only in some generated sessions: a single seed used to miss them.
// Each is caught by its property in every seed because the generators reach its class on purpose.
import type { Message, RequestOptions } from "@ctxkit/core";
import { hasToolCalls, isSynthetic, findToolUnits } from "@ctxkit/core/kit";
import { createBrokenModule } from "./wrap-simple-context.js";

/** Compacts whenever its view passes 50% of the budget (down to 30%): a cache miss on most requests under 70%. */
export const compactsAtHalfTheBudget = createBrokenModule("compacts-at-half-the-budget", {
  config: { compactThreshold: 0.5, targetRatio: 0.3 },
});

/**
 * Compacts whenever its view passes 65% of the budget: only views between 65% and 70% show it. Its cache
 * prices make every rewrite next to free, so no young session defers a compaction past the threshold.
 */
export const compactsJustUnderSeventyPercent = createBrokenModule("compacts-just-under-seventy-percent", {
  config: { compactThreshold: 0.65, targetRatio: 0.5, cachePricing: { read: 0.99, write: 1 } },
});

/** After setMessages, builds its first view for 3% more than an explicit `tokenBudget` (a provider's budget is obeyed). */
export const overshootsTokenBudgetAfterResume = createBrokenModule("overshoots-token-budget-after-resume", {
  methods: (inner) => {
    let resumed = false;
    return {
      setMessages: async (messages) => {
        await inner.setMessages(messages);
        resumed = true;
      },
      getMessagesForRequest: (options?: RequestOptions) => {
        if (!resumed || options?.tokenBudget === undefined) return inner.getMessagesForRequest(options);
        resumed = false;
        return inner.getMessagesForRequest({ ...options, tokenBudget: Math.ceil(options.tokenBudget * 1.03) });
      },
    };
  },
});

/** After setMessages, reads a provider's window without taking off its output reservation or any margin. */
export const overshootsProviderBudgetAfterResume = createBrokenModule("overshoots-provider-budget-after-resume", {
  methods: (inner) => {
    let resumed = false;
    return {
      setMessages: async (messages) => {
        await inner.setMessages(messages);
        resumed = true;
      },
      getMessagesForRequest: async (options?: RequestOptions) => {
        if (!resumed || options?.provider === undefined) return inner.getMessagesForRequest(options);
        resumed = false;
        const info = await options.provider.getInfo?.();
        const window = info?.defaults?.contextWindow;
        if (typeof window !== "number") return inner.getMessagesForRequest(options);
        const { provider: _provider, ...rest } = options;
        return inner.getMessagesForRequest({ ...rest, tokenBudget: window });
      },
    };
  },
});

function coveredThroughOf(message: Message): number | undefined {
  const summary = message.metadata?.ctxkit?.["summary"] as { coveredThrough?: unknown } | undefined;
  return typeof summary?.coveredThrough === "number" ? summary.coveredThrough : undefined;
}

/**
 * Drops the first tool unit of the current turn (after the latest user message) from a view that holds
 * a summary, and stretches the summary's coverage over it, though the summarizer never saw it.
 */
export const dropsCurrentTurnUnitUnderSummary = createBrokenModule("drops-current-turn-unit-under-summary", {
  view: async (view, inner) => {
    const at = view.findIndex((message) => coveredThroughOf(message) !== undefined);
    if (at === -1) return view;
    const history = await inner.getMessages();
    const latestUser = history.findLastIndex((message) => message.role === "user");
    if (latestUser === -1) return view;
    // The first unit after the latest user message whose call is in the view, after the summary.
    const callPosition = view.findIndex(
      (message, position) => position > at && hasToolCalls(message) && history.indexOf(message) > latestUser,
    );
    if (callPosition === -1) return view;
    const unit = findToolUnits(view).find((candidate) => candidate.start === callPosition);
    if (unit === undefined) return view;
    const last = view[unit.end - 1]!;
    const lastIndex = history.indexOf(last);
    if (lastIndex === -1 || isSynthetic(last)) return view;
    const summary = view[at]!;
    const ctxkit = summary.metadata!.ctxkit!;
    const claimed = {
      ...summary,
      metadata: {
        ...summary.metadata,
        ctxkit: {
          ...ctxkit,
          summary: { ...(ctxkit["summary"] as object), coveredThrough: Math.max(coveredThroughOf(summary)!, lastIndex) },
        },
      },
    } as Message;
    return [...view.slice(0, at), claimed, ...view.slice(at + 1, unit.start), ...view.slice(unit.end)];
  },
});

/** recoverOverflow() halves every later budget, and clear() forgets to undo it. */
export const keepsOverflowShrinkThroughClear = createBrokenModule("keeps-overflow-shrink-through-clear", {
  methods: (inner) => {
    let scale = 1;
    const scaled = (options: RequestOptions | undefined): RequestOptions | undefined =>
      options?.tokenBudget === undefined || scale === 1
        ? options
        : { ...options, tokenBudget: Math.max(1, Math.floor(options.tokenBudget * scale)) };
    return {
      recoverOverflow: (error, options) => {
        scale = 0.5;
        return inner.recoverOverflow(error, scaled(options));
      },
      getMessagesForRequest: (options) => inner.getMessagesForRequest(scaled(options)),
      compact: (options) => inner.compact(scaled(options)),
    };
  },
});

/** Offloads large tool results (core's strategy), but each reference names the call id of the previous result. */
export const namesTheWrongOffloadedResult = createBrokenModule("names-the-wrong-offloaded-result", {
  config: { strategies: ["offload-tool-results", "truncate"] },
  view: async (view, inner) => {
    const history = await inner.getMessages();
    return view.map((message) => {
      if (message.role !== "tool" || typeof message.content !== "string" || !message.content.startsWith("[tool result offloaded:"))
        return message;
      const other = history.find((candidate) => candidate.role === "tool" && candidate.tool_call_id !== message.tool_call_id);
      if (other === undefined || other.role !== "tool") return message;
      return { ...message, content: message.content.replace(JSON.stringify(message.tool_call_id), JSON.stringify(other.tool_call_id)) };
    });
  },
});

/** Compacts on every request that names a budget, whether or not anything arrived since: a compaction loop. */
export const compactsOnEveryRequest = createBrokenModule("compacts-on-every-request", {
  methods: (inner) => ({
    getMessagesForRequest: async (options?: RequestOptions) => {
      if (options?.tokenBudget !== undefined && (await inner.getMessages()).length > 0) await inner.compact(options);
      return inner.getMessagesForRequest(options);
    },
  }),
});

/**
 * Only clears tool results, so most compactions end above their target, and its post_compact never
 * says so: the report that should tell an operator why the view stayed large is dropped.
 */
export const stopsShortOfTargetSilently = createBrokenModule("stops-short-of-target-silently", {
  config: { strategies: ["clear-tool-results"] },
  event: (event, payload) => {
    if (event !== "context:post_compact") return payload;
    const { shortOfTarget: _dropped, ...rest } = payload as { shortOfTarget?: unknown };
    return rest;
  },
});

/** Moves each summary to just after the first call message of the view, between the call and its results. */
export const putsSummaryInsideUnit = createBrokenModule("puts-summary-inside-unit", {
  view: (view) => {
    const at = view.findIndex((message) => coveredThroughOf(message) !== undefined);
    if (at === -1) return view;
    const rest = [...view.slice(0, at), ...view.slice(at + 1)];
    const call = rest.findIndex((message, position) => hasToolCalls(message) && rest[position + 1]?.role === "tool");
    if (call === -1) return view;
    return [...rest.slice(0, call + 1), view[at]!, ...rest.slice(call + 1)];
  },
});

/** Splits an assistant message with parallel calls into one message per call, each followed by its result. */
export const splitsParallelCalls = createBrokenModule("splits-parallel-calls", {
  view: (view) => {
    const units = findToolUnits(view);
    const parallel = units.find((unit) => {
      const message = view[unit.start]!;
      return hasToolCalls(message) && message.tool_calls.length > 1 && unit.end - unit.start === message.tool_calls.length + 1;
    });
    if (parallel === undefined) return view;
    const message = view[parallel.start]!;
    if (!hasToolCalls(message)) return view;
    const results = view.slice(parallel.start + 1, parallel.end);
    const split = message.tool_calls.flatMap((call): Message[] => {
      const result = results.find((candidate) => candidate.role === "tool" && candidate.tool_call_id === call.id);
      return result === undefined ? [] : [{ ...message, tool_calls: [call] }, result];
    });
    return [...view.slice(0, parallel.start), ...split, ...view.slice(parallel.end)];
  },
});

/** Trims the text of every reasoning part in the view by its last character (a "harmless" trailing-space trim). */
export const trimsReasoning = createBrokenModule("trims-reasoning", {
  view: (view) =>
    view.map((message) => {
      if (!Array.isArray(message.content)) return message;
      const content = message.content.map((part) => {
        if (part.type === "reasoning" && typeof part["text"] === "string") return { ...part, text: (part["text"] as string).slice(0, -1) };
        if (part.type === "thinking" && typeof part["thinking"] === "string")
          return { ...part, thinking: (part["thinking"] as string).slice(0, -1) };
        return part;
      });
      return { ...message, content } as Message;
    }),
});

/** Strips the reasoning parts from older assistant messages and keeps the rest of each message. */
export const stripsReasoning = createBrokenModule("strips-reasoning", {
  view: (view) =>
    view.map((message, position) => {
      if (position === view.length - 1 || !Array.isArray(message.content)) return message;
      const content = message.content.filter((part) => part.type !== "reasoning" && part.type !== "thinking");
      return content.length === message.content.length ? message : ({ ...message, content } as Message);
    }),
});

/** Offloads with core's strategy but names only the call id in each reference, as core once did: ambiguous once ids repeat. */
export const namesOnlyTheCallId = createBrokenModule("names-only-the-call-id", {
  config: { strategies: ["offload-tool-results", "truncate"] },
  view: (view) =>
    view.map((message) =>
      message.role === "tool" && typeof message.content === "string" && message.content.startsWith("[tool result offloaded:")
        ? { ...message, content: message.content.replace(/,"index":\d+\}/, "}") }
        : message,
    ),
});
