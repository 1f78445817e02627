// Context modules each broken in exactly one way, and the check that must catch each one.
import { hasToolCalls, isSynthetic, type Message } from "@ctxkit/core";
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
