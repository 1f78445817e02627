// Context modules each broken in exactly one way, and the check that must catch each one.
import type { Message } from "@ctxkit/core";
import { hasToolCalls, isSynthetic } from "@ctxkit/core/kit";
import { z } from "zod";
import { createBrokenModule } from "./wrap-simple-context.js";

/** Drops the results of the first tool unit in the view and keeps its call: a split pair. */
export const splitsToolPair = createBrokenModule("splits-tool-pair", {
  view: (view) => {
    const callIndex = view.findIndex(hasToolCalls);
    if (callIndex === -1) return view;
    let end = callIndex + 1;
    while (view[end]?.role === "tool") end += 1;
    return [...view.slice(0, callIndex + 1), ...view.slice(end)];
  },
});

/** Keeps only the first result of a parallel call, dropping its siblings' results. */
export const dropsParallelSibling = createBrokenModule("drops-parallel-sibling", {
  view: (view) =>
    view.filter((message, index) => {
      if (message.role !== "tool") return true;
      return view[index - 1]?.role !== "tool";
    }),
});

/** Compaction rewrites the stored history: after a compacted view, getMessages() returns the view. */
export const mutatesHistoryDuringCompaction = createBrokenModule("mutates-history", {
  methods: (inner) => ({
    getMessagesForRequest: async (options) => {
      const view = await inner.getMessagesForRequest(options);
      const usage = await inner.usage();
      // The classic destructive compactor: the compacted view becomes the new history.
      if (usage?.compacted === true) await inner.setMessages(view.filter((message) => !isSynthetic(message)));
      return view;
    },
  }),
});

/** Swaps the first two adjacent plain messages (no tool calls, no tool results) of the view. */
export const reordersMessages = createBrokenModule("reorders-messages", {
  view: (view) => {
    const isPlain = (message: Message | undefined) =>
      message !== undefined && (message.role === "user" || message.role === "assistant") && !hasToolCalls(message);
    const index = view.findIndex((message, position) => isPlain(message) && isPlain(view[position + 1]));
    if (index === -1) return view;
    const swapped = [...view];
    [swapped[index], swapped[index + 1]] = [swapped[index + 1]!, swapped[index]!];
    return swapped;
  },
});

/** Builds every view for twice the budget it was given. */
export const overshootsBudget = createBrokenModule("overshoots-budget", {
  budget: (budget) => (budget === undefined ? undefined : budget * 2),
});

/** Leaves the system messages out of every view. */
export const dropsSystemMessage = createBrokenModule("drops-system-message", {
  view: (view) => view.filter((message) => message.role !== "system"),
});

/** Adds by reading the history and writing it back: concurrent adds overwrite each other. */
export const losesConcurrentAdds = createBrokenModule("loses-concurrent-adds", {
  methods: (inner) => ({
    addMessage: async (message) => {
      const current = await inner.getMessages();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await inner.setMessages([...current, message]);
    },
  }),
});

/** A module whose mount() registers nothing. */
export const mountsNothing = {
  meta: { type: "context" as const, name: "mounts-nothing" },
  configSchema: z.strictObject({}),
  mount() {},
};

// One more broken module per remaining check, so that every check is proven able to fail.

/** Puts a notice counting the requests first in every view, so no view begins with the previous one. */
export const rewritesViewPrefix = (() => {
  let requests = 0;
  return createBrokenModule("rewrites-view-prefix", {
    view: (view) => [{ role: "developer", content: `request ${++requests}`, metadata: { ctxkit: { source: "notice" } } }, ...view],
  });
})();

/** Resumes without the oldest message. */
export const dropsOldestOnResume = createBrokenModule("drops-oldest-on-resume", {
  methods: (inner) => ({ setMessages: (messages) => inner.setMessages(messages.slice(1)) }),
});

/** clear() does nothing. */
export const ignoresClear = createBrokenModule("ignores-clear", {
  methods: () => ({ clear: async () => {} }),
});

/** Swallows a message it cannot validate instead of rejecting it. */
export const swallowsInvalidMessages = createBrokenModule("swallows-invalid-messages", {
  methods: (inner) => ({
    addMessage: (message) => inner.addMessage(message).catch(() => {}),
  }),
});

/** Compacts without announcing it: no pre_compact or post_compact ever reaches the hooks. */
export const compactsSilently = createBrokenModule("compacts-silently", { emitsEvents: false });

/** compact() works for twice the budget it was given. */
export const compactsForTwiceTheBudget = createBrokenModule("compacts-for-twice-the-budget", {
  methods: (inner) => ({ compact: (options) => inner.compact({ ...options, tokenBudget: (options?.tokenBudget ?? 1) * 2 }) }),
});

/** compact() compacts, and says it did not. */
export const hidesItsCompaction = createBrokenModule("hides-its-compaction", {
  methods: (inner) => ({ compact: async (options) => ({ ...(await inner.compact(options)), compacted: false }) }),
});

/** recoverOverflow() returns the same view again. */
export const recoversWithTheSameView = createBrokenModule("recovers-with-the-same-view", {
  methods: (inner) => ({ recoverOverflow: (_error, options) => inner.getMessagesForRequest(options) }),
});

/** usage() reports half the tokens of the view. */
export const underReportsUsage = createBrokenModule("under-reports-usage", {
  methods: (inner) => ({
    usage: async () => {
      const usage = await inner.usage();
      return usage === undefined ? undefined : { ...usage, tokens: Math.floor(usage.tokens / 2) };
    },
  }),
});

/** Says it is a strategy module. */
export const wrongMeta = { ...dropsSystemMessage, meta: { type: "strategy" as const, name: "wrong-meta" } };

/** Its config schema lets unknown keys through. */
export const acceptsUnknownConfig = { ...dropsSystemMessage, configSchema: z.looseObject({}) };

/** Its cleanup throws when called a second time. */
export const cleanupFailsTwice = {
  ...dropsSystemMessage,
  async mount(coordinator: Parameters<typeof dropsSystemMessage.mount>[0]) {
    const cleanup = await dropsSystemMessage.mount(coordinator);
    let calls = 0;
    return () => {
      calls += 1;
      if (calls > 1) throw new Error("already cleaned up");
      cleanup();
    };
  },
};

/** Ignores the request's signal: an aborted request still builds and returns a view nobody wants. */
export const ignoresAbort = createBrokenModule("ignores-abort", {
  methods: (inner) => ({
    getMessagesForRequest: (options) => {
      const { signal: _ignored, ...rest } = options ?? {};
      return inner.getMessagesForRequest(rest);
    },
  }),
});

/** Treats a budget that is not a count as no budget at all, falling back to a generous default. */
export const obeysAnyBudget = createBrokenModule("obeys-any-budget", {
  methods: (inner) => ({
    getMessagesForRequest: (options) => {
      const tokenBudget = options?.tokenBudget;
      const isCount = typeof tokenBudget === "number" && Number.isFinite(tokenBudget) && tokenBudget >= 0;
      return inner.getMessagesForRequest(isCount ? options : { tokenBudget: 1_000_000 });
    },
  }),
});

/** Trusts a caller's `metadata.ctxkit`: takes such a history message for one of its own stale notices and leaves it out. */
export const trustsCallerMarkers = createBrokenModule("trusts-caller-markers", {
  view: (view) => view.filter((message) => message.metadata?.ctxkit?.source !== "import"),
});

// Mutants for the second version of the kit: each passed every property of the first.

/** Compacts whenever its view passes 10% of the budget, down to 5%: a prompt-cache miss on most requests. */
export const compactsRestlessly = createBrokenModule("compacts-restlessly", { config: { compactThreshold: 0.1, targetRatio: 0.05 } });

/** Counts with a cheap counter (a token per 8 characters), and reports that count in usage(). */
export const countsCheaply = createBrokenModule("counts-cheaply", {
  config: { tokenizer: { name: "cheap-counter", count: (text: string) => Math.ceil(text.length / 8) } },
});

/** Builds the first view after setMessages (a resumed session) for 10% more than the budget. */
export const overshootsAfterResume = (() => {
  let resumed = new WeakSet<object>();
  return createBrokenModule("overshoots-after-resume", {
    methods: (inner) => ({
      setMessages: async (messages) => {
        await inner.setMessages(messages);
        resumed.add(inner);
      },
      getMessagesForRequest: (options) => {
        if (!resumed.has(inner) || options?.tokenBudget === undefined) return inner.getMessagesForRequest(options);
        resumed = new WeakSet();
        return inner.getMessagesForRequest({ ...options, tokenBudget: Math.ceil(options.tokenBudget * 1.1) });
      },
    }),
  });
})();

/** clear() keeps an "overflow scale": from the second request after it on, views are built for 60% of the budget. */
export const keepsStateThroughClear = createBrokenModule("keeps-state-through-clear", {
  methods: (inner) => {
    let requestsSinceClear: number | undefined;
    return {
      clear: async () => {
        await inner.clear();
        requestsSinceClear = 0;
      },
      getMessagesForRequest: (options) => {
        if (requestsSinceClear === undefined || options?.tokenBudget === undefined) return inner.getMessagesForRequest(options);
        requestsSinceClear += 1;
        const scale = requestsSinceClear >= 2 ? 0.6 : 1;
        return inner.getMessagesForRequest({ ...options, tokenBudget: Math.max(1, Math.floor(options.tokenBudget * scale)) });
      },
    };
  },
});

/** Marks the messages setMessages is given as seen, on the caller's own objects. */
export const mutatesSetMessagesInput = createBrokenModule("mutates-set-messages-input", {
  methods: (inner) => ({
    setMessages: async (messages) => {
      await inner.setMessages(messages);
      for (const message of messages) (message as { metadata?: object }).metadata = { ...message.metadata, seen: true };
    },
  }),
});

/** Notes on the caller's error object that it handled the overflow. */
export const mutatesOverflowError = createBrokenModule("mutates-overflow-error", {
  methods: (inner) => ({
    recoverOverflow: async (error, options) => {
      const view = await inner.recoverOverflow(error, options);
      (error as { handled?: boolean }).handled = true;
      return view;
    },
  }),
});

/** Accepts a non-boolean `metadata.pinned`, coercing it: one invalid kind among twenty slips through. */
export const coercesPinned = createBrokenModule("coerces-pinned", {
  methods: (inner) => {
    const coerce = (message: Message): Message => {
      const pinned = message?.metadata?.pinned as unknown;
      return pinned === undefined || typeof pinned === "boolean"
        ? message
        : ({ ...message, metadata: { ...message.metadata, pinned: Boolean(pinned) } } as Message);
    };
    return {
      addMessage: (message) => inner.addMessage(coerce(message)),
      setMessages: (messages) => inner.setMessages(messages.map(coerce)),
    };
  },
});

/** Drops the message right after its summary and claims the summary covers it, though the summarizer never saw it. */
export const overclaimsSummaryCoverage = createBrokenModule("overclaims-summary-coverage", {
  view: async (view, inner) => {
    const at = view.findIndex((message) => message.metadata?.ctxkit?.["summary"] !== undefined);
    const next = view[at + 1];
    if (
      at === -1 ||
      next === undefined ||
      isSynthetic(next) ||
      hasToolCalls(next) ||
      next.role === "tool" ||
      next.role === "system" ||
      next.role === "developer"
    )
      return view;
    const history = await inner.getMessages();
    const index = history.indexOf(next);
    if (index === -1) return view;
    const summary = view[at]!;
    const ctxkit = summary.metadata!.ctxkit!;
    const claimed = {
      ...summary,
      metadata: { ...summary.metadata, ctxkit: { ...ctxkit, summary: { ...(ctxkit["summary"] as object), coveredThrough: index } } },
    } as Message;
    return [...view.slice(0, at), claimed, ...view.slice(at + 2)];
  },
});

/** Lets a request wait a tick before it takes its turn: adds called after it overtake it. */
export const servesRequestsLate = createBrokenModule("serves-requests-late", {
  methods: (inner) => ({
    getMessagesForRequest: async (options) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return inner.getMessagesForRequest(options);
    },
  }),
});
