// context-persistent with the summary strategy, as a module that declares itself to the conformance kit:
// its `conformance` export mounts the kit's recording summarizer, which a JSON --config cannot name, so
// `pnpm start` runs the restart property on it too. The journals go under CTXKIT_START_STORAGE.
import { createSummaryStrategy } from "../packages/strategy-summary/dist/index.js";

export { configSchema, meta, mount } from "../packages/context-persistent/dist/index.js";

export const conformance = {
  restart: true,
  summarizer: true,
  config: ({ sessionId, summarizer }) => ({
    storagePath: process.env.CTXKIT_START_STORAGE,
    sessionId,
    strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
  }),
};
