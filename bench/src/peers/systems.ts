// Every system the peer benchmarks run, by name, ctxkit first as the baseline of every ratio. The
// implementations load lazily: a child process imports only the library it runs.
import type { ContextSystem } from "./context-system.js";

export interface SystemDescription {
  readonly name: string;
  /** One line for the tables' notes: what exactly runs. */
  readonly summary: string;
  load(): Promise<ContextSystem>;
}

export const SYSTEMS: readonly SystemDescription[] = [
  {
    name: "ctxkit",
    summary:
      "ctxkit: context-simple with its default strategies [clear-tool-results, trim-long-text, truncate] and exact o200k_base counter; a request is addMessage + getMessagesForRequest.",
    load: async () => (await import("./ctxkit-system.js")).ctxkitSystem,
  },
  {
    name: "langchain · tiktoken",
    summary:
      'langchain · tiktoken: trimMessages (@langchain/core 1.4.0) as its docs recommend (strategy "last", includeSystem, startOn "human", endOn ["human", "tool"]), with the docs\' per-message js-tiktoken counter (o200k_base).',
    load: async () => (await import("./langchain-trim.js")).langchainTiktokenSystem,
  },
  {
    name: "langchain · approx",
    summary: "langchain · approx: the same trimMessages call with langchain 1.5.14's countTokensApproximately (characters / 4).",
    load: async () => (await import("./langchain-trim.js")).langchainApproximateSystem,
  },
  {
    name: "ai-sdk",
    summary:
      'ai-sdk: ai 6.0.326 as its cookbook compacts in prepareStep: when JSON.stringify(messages).length / 4 exceeds the budget, pruneMessages (reasoning "all", toolCalls "before-last-3-messages"), then the system messages and the last N messages that fit that estimate.',
    load: async () => (await import("./ai-sdk-prune.js")).aiSdkSystem,
  },
];

export const BASELINE = "ctxkit";

const loaded = new Map<string, Promise<ContextSystem>>();

export function loadSystem(name: string): Promise<ContextSystem> {
  let system = loaded.get(name);
  if (system === undefined) {
    const description = SYSTEMS.find((candidate) => candidate.name === name);
    if (description === undefined) throw new Error(`Unknown system ${name}`);
    system = description.load();
    loaded.set(name, system);
  }
  return system;
}

/**
 * The child processes a benchmark starts, and the systems each runs in turn: ctxkit alone, in a fresh
 * process; then the peers together, the one that overruns its bound last (each overrun restarts the child).
 */
export const PROCESS_GROUPS: readonly (readonly string[])[] = [[BASELINE], ["langchain · approx", "ai-sdk", "langchain · tiktoken"]];
