// context-simple's manager: core's context engine over a store in memory.
// From core's narrow entry: a fresh process then loads the engine without the kit's and the root's other parts.
import type { ContextConfig } from "@ctxkit/core";
import { ContextEngine, MemoryMessageStore } from "@ctxkit/core/engine";

export const MODULE_NAME = "@ctxkit/context-simple";

/**
 * The in-memory, non-destructive, cache-stable context manager. Ready at once: nothing to open.
 * @deprecated Build managers one way: `createContextManager({ store: new MemoryMessageStore(), ...config })` from `@ctxkit/core`.
 */
export class SimpleContextManager extends ContextEngine {
  constructor(config: ContextConfig = {}) {
    super(new MemoryMessageStore(), config, { moduleName: MODULE_NAME });
  }
}

/**
 * A manager over a fresh in-memory store, ready at once.
 * @deprecated A thin alias kept for existing code. Build managers one way:
 * `await createContextManager({ store: new MemoryMessageStore(), ...config })` from `@ctxkit/core`.
 */
export function createSimpleContext(config: ContextConfig = {}): SimpleContextManager {
  return new SimpleContextManager(config);
}
