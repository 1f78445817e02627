// Child process of the cost benchmark: replays transcripts through one system at each budget, pricing and judging every view.
import { type CostReplayInput, factsUsedByCalls, MessageFacts, replayCost } from "@ctxkit/cli/replay";
import { serveJobs } from "../lib/run-jobs-in-child.js";
import { readTranscript } from "../sessions/real-transcripts.js";
import type { CostJob, CostReport } from "./cost-protocol.js";
import { findCostSystem } from "./cost-systems.js";

/** Messages and token counts are shared by every job of this process on the same transcript. */
const facts = new MessageFacts();
const transcripts = new Map<string, CostReplayInput>();

function loadTranscript(file: string): CostReplayInput {
  let input = transcripts.get(file);
  if (input === undefined) {
    const messages = readTranscript(file);
    input = { file, messages, factsByCall: factsUsedByCalls(messages), facts };
    transcripts.set(file, input);
  }
  return input;
}

serveJobs<CostJob, CostReport>(async (job, _index, context) => {
  const system = findCostSystem(job.system);
  const input = loadTranscript(job.file);
  await context.time(job.limitMs, async () => {
    for (const budget of job.budgets) await context.report(await replayCost(system, input, budget));
  });
});
