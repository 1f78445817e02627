// How context-simple's cost grows with the session: the first view of a large session, and one request at each size.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { estimateCounter, type Message } from "@ctxkit/core";
import { createSimpleContext } from "@ctxkit/context-simple";
import { median } from "../lib/measure.js";

setFlagsFromString("--expose-gc");
/** A full collection, so heap figures hold only what is still referenced. */
const collectGarbage = runInNewContext("gc") as () => void;

const heapUsed = (): number => process.memoryUsage().heapUsed;

export interface FirstView {
  readonly messages: number;
  readonly budget: number;
  readonly medianMs: number;
  readonly runs: number;
  /** Heap growth across the call, before any collection after it: what the view building allocated (the largest run). */
  readonly allocatedBytes: number;
  /** Heap still held after a full collection, above the manager holding the messages (the largest run). */
  readonly retainedBytes: number;
  readonly viewMessages: number;
}

/**
 * The first request on a manager just given `history`: every message counted once, the view built and
 * compacted to `budget`. The heap is measured from the manager already holding the messages.
 */
export async function measureFirstView(history: readonly Message[], budget: number, runs: number): Promise<FirstView> {
  const samplesMs: number[] = [];
  let allocatedBytes = 0;
  let retainedBytes = 0;
  let viewMessages = 0;
  for (let run = 0; run < runs; run += 1) {
    const manager = createSimpleContext({ tokenizer: estimateCounter() });
    await manager.setMessages(history as Message[]);
    collectGarbage();
    const before = heapUsed();
    const started = performance.now();
    const view = await manager.getMessagesForRequest({ tokenBudget: budget });
    samplesMs.push(performance.now() - started);
    allocatedBytes = Math.max(allocatedBytes, heapUsed() - before);
    collectGarbage();
    retainedBytes = Math.max(retainedBytes, heapUsed() - before);
    viewMessages = view.length;
  }
  return { messages: history.length, budget, medianMs: median(samplesMs), runs, allocatedBytes, retainedBytes, viewMessages };
}

export interface ScalePoint {
  readonly messages: number;
  /** A request after one new message, nothing to compact. */
  readonly freeMs: number;
  /** A request after one new message on a view compacted to the budget before (the sticky view extended). */
  readonly stickyMs: number;
}

async function steadyRequestMs(history: readonly Message[], budget: number, runs: number): Promise<number> {
  const manager = createSimpleContext({ tokenizer: estimateCounter() });
  await manager.setMessages(history as Message[]);
  await manager.getMessagesForRequest({ tokenBudget: budget });
  const samplesMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    await manager.addMessage({ role: "user", content: `follow-up ${run}: run the tests again and tell me what failed` });
    const started = performance.now();
    await manager.getMessagesForRequest({ tokenBudget: budget });
    samplesMs.push(performance.now() - started);
  }
  return median(samplesMs);
}

/** One steady request's median time at each size, on the first `size` messages of `session`. */
export async function measureScaleCurve(
  session: readonly Message[],
  sizes: readonly number[],
  budgets: { free: number; compacted: number },
  runs: number,
): Promise<ScalePoint[]> {
  const points: ScalePoint[] = [];
  for (const size of sizes) {
    const history = session.slice(0, size);
    const freeMs = await steadyRequestMs(history, budgets.free, runs);
    const stickyMs = await steadyRequestMs(history, budgets.compacted, runs);
    points.push({ messages: size, freeMs, stickyMs });
    collectGarbage();
  }
  return points;
}

/** A line chart (mermaid `xychart-beta`, which GitHub renders) of the steady requests against session size. */
export function scaleChart(points: readonly ScalePoint[]): string {
  const label = (size: number): string => (size >= 1_000 ? `${size / 1_000}k` : String(size));
  const microseconds = (milliseconds: number): number => Math.round(milliseconds * 1_000);
  const highest = Math.max(...points.flatMap((point) => [point.freeMs, point.stickyMs]));
  return [
    "```mermaid",
    "xychart-beta",
    '  title "One steady request against session size (median µs)"',
    `  x-axis "messages in the session" [${points.map((point) => `"${label(point.messages)}"`).join(", ")}]`,
    `  y-axis "µs per request" 0 --> ${Math.ceil((microseconds(highest) * 1.2) / 100) * 100}`,
    `  line [${points.map((point) => microseconds(point.freeMs)).join(", ")}]`,
    `  line [${points.map((point) => microseconds(point.stickyMs)).join(", ")}]`,
    "```",
  ].join("\n");
}
