// Counts a manager's overflow recoveries, so a loop test knows the provider did reject views.
import { canRecoverOverflow, type ContextManager } from "@ctxkit/core";

export function countRecoveries<M extends ContextManager>(manager: M): () => number {
  if (!canRecoverOverflow(manager)) throw new Error("the manager cannot recover from an overflow");
  let recoveries = 0;
  const recover = manager.recoverOverflow.bind(manager);
  manager.recoverOverflow = (error, options) => {
    recoveries += 1;
    return recover(error, options);
  };
  return () => recoveries;
}
