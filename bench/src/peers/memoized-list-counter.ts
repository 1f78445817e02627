// A trimmer's list counter memoized per message: the same counts (so the same views), with the time the
// real counter would have spent measured and added back.
import type { BaseMessage } from "@langchain/core/messages";
import type { Meter } from "./context-system.js";
import type { ListCounter, MessageMeasure } from "./langchain-counters.js";

/** Enough repetitions to time a short text's share above the clock's resolution. */
function repetitionsFor(message: BaseMessage): number {
  const length = typeof message.content === "string" ? message.content.length : JSON.stringify(message.content).length;
  return Math.max(1, Math.min(200, Math.ceil(4_000 / (length + 50))));
}

/**
 * The same counts as `listCounter`, so trimMessages returns the same views, but each message's share
 * is computed once (keyed by the message id, which trimMessages' copies keep). It also measures the
 * time the real counter would have spent: each message's share is timed when first computed (a short
 * one repeatedly, for a figure above the clock's resolution), and every later use adds that time to
 * `skippedMs`. The repetitions are counted in `extraMs`, so real time ≈ run time − extraMs + skippedMs.
 */
export class MemoizedListCounter {
  skippedMs = 0;
  extraMs = 0;
  private readonly shares = new Map<string, { share: number; milliseconds: number }>();

  constructor(
    private readonly measure: MessageMeasure,
    private meter: Meter,
  ) {}

  /** Meters the next runs into `meter`: the shares stay cached across replays of the same messages. */
  useMeter(meter: Meter): void {
    this.meter = meter;
  }

  readonly count: ListCounter = (messages) => {
    let sum = 0;
    for (const message of messages) {
      this.meter.messagesMeasured += 1;
      this.meter.tokenizerCalls += this.measure.tokenizerCalls(message);
      const key = message.id;
      let entry = key === undefined ? undefined : this.shares.get(key);
      if (entry === undefined) {
        entry = this.timeShare(message);
        if (key !== undefined) this.shares.set(key, entry);
      } else this.skippedMs += entry.milliseconds;
      sum += entry.share;
    }
    return this.measure.total(sum);
  };

  private timeShare(message: BaseMessage): { share: number; milliseconds: number } {
    const started = performance.now();
    const share = this.measure.share(message);
    const once = performance.now() - started;
    const repetitions = repetitionsFor(message);
    if (repetitions === 1) return { share, milliseconds: once };
    const repeated = performance.now();
    for (let repetition = 0; repetition < repetitions; repetition += 1) this.measure.share(message);
    const extra = performance.now() - repeated;
    this.extraMs += extra;
    return { share, milliseconds: extra / repetitions };
  }
}
