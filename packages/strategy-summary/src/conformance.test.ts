// The conformance suite against context-simple and context-persistent running [clear-tool-results, summary, truncate].
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeContextManager } from "@ctxkit/conformance/vitest";
import * as contextPersistent from "@ctxkit/context-persistent";
import * as contextSimple from "@ctxkit/context-simple";
import type { Coordinator } from "@ctxkit/core";
import { afterAll } from "vitest";
import { todoListReminder, withPostSummaryHooks } from "./post-summary-hooks.js";
import { createSessionMemoryStrategy } from "./session-memory.js";
import { createSummaryStrategy } from "./summary-strategy.js";

interface ContextModule {
  meta: unknown;
  configSchema: unknown;
  mount(coordinator: Coordinator, config: never): unknown;
}

/** The module, mounted with a fresh summary strategy each time, so no breaker or cache is shared between runs. */
function withSummary(module: ContextModule) {
  const mount = module.mount as (coordinator: Coordinator, config: object) => unknown;
  return {
    meta: module.meta,
    configSchema: module.configSchema,
    mount: (coordinator: Coordinator, config: object = {}) =>
      mount(coordinator, { ...config, strategies: ["clear-tool-results", createSummaryStrategy(), "truncate"] }),
  };
}

const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-summary-conformance-"));
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

describeContextManager("context-simple with [clear-tool-results, summary, truncate]", withSummary(contextSimple));
describeContextManager("context-persistent with [clear-tool-results, summary, truncate]", withSummary(contextPersistent), { config: { storagePath } });

/** Session memory updated after every request that adds a little, so the conformance sessions see it swapped in. */
function withSessionMemory(module: ContextModule) {
  const mount = module.mount as (coordinator: Coordinator, config: object) => unknown;
  return {
    meta: module.meta,
    configSchema: module.configSchema,
    mount: (coordinator: Coordinator, config: object = {}) =>
      mount(coordinator, {
        ...config,
        strategies: [withPostSummaryHooks(createSessionMemoryStrategy({ updateEveryTokens: 1, keepRecentMessages: 2 }), [todoListReminder(), () => "keep going"]), "truncate"],
      }),
  };
}

describeContextManager("context-simple with [session-memory with post-summary hooks, truncate]", withSessionMemory(contextSimple));
