// A module whose compaction receipts lie: each receipt marks the first message its compaction dropped as kept.
import type { ContextManager, RequestOptions } from "@ctxkit/core";
import type { CompactionReceipt, MessageFateRun } from "@ctxkit/core/kit";
import { createBrokenModule } from "./wrap-simple-context.js";

function markFirstDroppedKept(receipt: CompactionReceipt): CompactionReceipt {
  const position = receipt.fates.findIndex((run) => run.fate === "dropped" || run.fate === "summarized");
  if (position === -1) return receipt;
  const run = receipt.fates[position]!;
  const lie: MessageFateRun[] = [{ from: run.from, to: run.from, fate: "kept" }];
  if (run.to > run.from) lie.push({ ...run, from: run.from + 1 });
  return { ...receipt, fates: [...receipt.fates.slice(0, position), ...lie, ...receipt.fates.slice(position + 1)] };
}

export const liesInReceipts = createBrokenModule("lies-in-receipts", {
  methods: (inner) =>
    ({
      listCompactions: () => inner.listCompactions(),
      getCompaction: async (id: string) => {
        const receipt = await inner.getCompaction(id);
        return receipt === undefined ? undefined : markFirstDroppedKept(receipt);
      },
      explainView: (options?: RequestOptions) => inner.explainView(options),
    }) as Partial<ContextManager>,
});
