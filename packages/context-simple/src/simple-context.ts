// context-simple's manager: core's context engine over a store in memory.
import { ContextEngine, MemoryMessageStore, type ContextConfig } from "@ctxkit/core";

export const MODULE_NAME = "@ctxkit/context-simple";

/** The in-memory, non-destructive, cache-stable context manager. Ready at once: nothing to open. */
export class SimpleContextManager extends ContextEngine {
  constructor(config: ContextConfig = {}) {
    super(new MemoryMessageStore(), config, { moduleName: MODULE_NAME });
  }
}

export function createSimpleContext(config: ContextConfig = {}): SimpleContextManager {
  return new SimpleContextManager(config);
}
