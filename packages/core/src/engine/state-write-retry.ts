// A change to shared strategy state, applied again when another writer changed the same key first.
import { ContextStateConflictError } from "../errors.js";

/** How many times a state change is tried before its conflict is reported. */
export const STATE_WRITE_ATTEMPTS = 10;
/**
 * The longest pause before a retry. Each pause is random and grows with the attempts (2, 4, 8 … ms, at
 * most this), so two writers that collided fall out of step instead of colliding again.
 */
const MAX_PAUSE_MS = 100;

/**
 * Runs `attempt` until its state write does not lose a compare-and-set. Each `attempt` must first take
 * in what other writers changed (a read syncs), so that a retry applies the change to the other writer's
 * value instead of over it. After `attempts` conflicts it rejects with the last `ContextStateConflictError`;
 * any other error is passed on at once. It never resolves for a write that was not stored.
 */
export async function retryStateWrite<T>(attempt: () => Promise<T>, attempts = STATE_WRITE_ATTEMPTS): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ContextStateConflictError) || tried >= attempts) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_PAUSE_MS, 2 ** tried)));
  }
}
