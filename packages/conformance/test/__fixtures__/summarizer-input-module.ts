// A summary pipeline mounted on the kit's summarizer, whose strategy sends it whole units or, in the
// broken variant, tool calls without their results.
import { CONTEXT_EVENTS, type Coordinator } from "@ctxkit/core";
import { z } from "zod";
import { SimpleContextManager } from "../../../context-simple/src/index.js";
import { createSummaryStrategy } from "../../../strategy-summary/src/summary-strategy.js";
import type { RecordingSummarizer, SessionSettings } from "../../src/index.js";

export function createSummarizingModule(name: string, sends: "whole-units" | "calls-without-results") {
  return {
    meta: { type: "context" as const, name },
    configSchema: z.strictObject({ summarizer: z.unknown() }),
    async mount(coordinator: Coordinator, config: { summarizer: RecordingSummarizer }) {
      const summarizer: RecordingSummarizer = config.summarizer;
      const strategy = createSummaryStrategy({
        summarizer: (request) =>
          summarizer(
            sends === "whole-units" ? request : { ...request, messages: request.messages.filter((message) => message.role !== "tool") },
          ),
      });
      const inner = new SimpleContextManager({ strategies: ["clear-tool-results", strategy, "truncate"] });
      const removeHandler = inner.addEventHandler((event, payload) => coordinator.hooks.emit(event, payload));
      await coordinator.mount("context", inner);
      coordinator.registerContributor("observability.events", name, () => [...CONTEXT_EVENTS]);
      return () => {
        removeHandler();
        void coordinator.unmount("context");
      };
    },
  };
}

/** Mounts the module above on the kit's summarizer. */
export const summarizingOptions = { config: ({ summarizer }: SessionSettings) => ({ summarizer }), summarizer: true } as const;
