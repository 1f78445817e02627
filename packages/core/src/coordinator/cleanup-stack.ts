// Cleanups: undo in reverse order of set-up, every one of them, even when some fail.
import { ContextArgumentError } from "../errors.js";

export type Cleanup = () => void | Promise<void>;

export interface CleanupStack {
  registerCleanup(cleanup: Cleanup): void;
  /**
   * Runs the registered cleanups, last registered first, each at most once. A failing cleanup does
   * not stop the others; afterwards an `AggregateError` lists every failure. Calling it again runs
   * only what was registered since; a call made while cleanups are running waits for the same run.
   */
  cleanup(): Promise<void>;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createCleanupStack(): CleanupStack {
  const pending: Cleanup[] = [];
  let running: Promise<void> | undefined;

  function registerCleanup(cleanup: Cleanup): void {
    if (typeof cleanup !== "function") {
      throw new ContextArgumentError("registerCleanup", [{ path: "cleanup", message: `needs a function, got ${typeof cleanup}` }]);
    }
    pending.push(cleanup);
  }

  async function runAll(): Promise<void> {
    const failures: unknown[] = [];
    // Popping before running is what makes each cleanup run at most once.
    for (let cleanup = pending.pop(); cleanup !== undefined; cleanup = pending.pop()) {
      try {
        await cleanup();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) {
      throw new AggregateError(failures, `${failures.length} cleanup(s) failed: ${failures.map(describeError).join("; ")}`);
    }
  }

  function cleanup(): Promise<void> {
    running ??= runAll().finally(() => {
      running = undefined;
    });
    return running;
  }

  return { registerCleanup, cleanup };
}
