// The journal's durability modes; the store contract itself is core's `MessageStore`.
export type { MessageStore, StoredSession, StateSnapshot, StateChange } from "@ctxkit/core/kit";

/**
 * When a write counts as done:
 * - `always`: each write gets its own write and fsync before it resolves;
 * - `batch`: writes waiting at the same time share one write and one fsync, then all resolve;
 * - `none`: a write resolves once the operating system has it (it survives the process, not the machine).
 */
export type Durability = "always" | "batch" | "none";
