// Modules whose undo or partial compaction is broken: only the undo-compaction and partial-compaction properties can tell.
import type { CompactResult, ContextManager, Message, RequestOptions } from "@ctxkit/core";
import type { CompactOptions } from "@ctxkit/core/kit";
import { createBrokenModule } from "./wrap-simple-context.js";

/** Undoes for real, but keeps serving the view it last served: the compacted one. */
export const servesCompactedViewAfterUndo = createBrokenModule("serves-compacted-view-after-undo", {
  methods: (inner) => {
    let last: Message[] | undefined;
    let isUndone = false;
    return {
      getMessagesForRequest: async (options?: RequestOptions) => {
        if (isUndone && last !== undefined) {
          isUndone = false;
          return last;
        }
        last = await inner.getMessagesForRequest(options);
        return last;
      },
      compact: (options?: CompactOptions) => inner.compact(options),
      compactsThrough: true,
      listCompactions: () => inner.listCompactions(),
      getCompaction: (id: string) => inner.getCompaction(id),
      undoCompaction: async (id: string) => {
        const result = await inner.undoCompaction(id);
        isUndone = true;
        return result;
      },
    } as Partial<ContextManager>;
  },
});

/** Says compact() takes `through`, then compacts the whole view all the same. */
export const compactsPastThrough = createBrokenModule("compacts-past-through", {
  methods: (inner) =>
    ({
      compact: ({ through: _through, ...options }: CompactOptions = {}): Promise<CompactResult> => inner.compact(options),
      compactsThrough: true,
      listCompactions: () => inner.listCompactions(),
      getCompaction: (id: string) => inner.getCompaction(id),
      undoCompaction: (id: string) => inner.undoCompaction(id),
    }) as Partial<ContextManager>,
});
