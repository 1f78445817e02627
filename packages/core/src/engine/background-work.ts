// Work off the request path: strategies' `observe`, run between requests so none of it delays an answer.
import type { Message } from "../messages/message.js";
import type { Strategy, StrategyStateStore } from "../pipeline/strategy.js";
import { withTimeout } from "../pipeline/with-timeout.js";
import { countMessageTokens } from "../tokens/count-message-tokens.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { EventSink } from "./event-sink.js";

/** One observe pass at a time; the next request starts the next one once it is done. */
export class BackgroundWork {
  /** The observe pass running now, if any. */
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(
    /** Strategies with `observe`; empty in the usual case, which then costs nothing. */
    private readonly observers: readonly Strategy[],
    private readonly counter: TokenCounter,
    private readonly events: EventSink,
    private readonly stateStoreFor: (name: string) => StrategyStateStore,
    /** How long one observe may run (`strategyTimeoutMs`). */
    private readonly timeoutMs: number,
  ) {}

  get isEmpty(): boolean {
    return this.observers.length === 0;
  }

  /**
   * Starts the observers on a copy of `history` after this turn, so none of their work, not even a
   * synchronous start, delays the answer. Does nothing while a pass runs or once stopped.
   */
  start(history: readonly Message[]): void {
    if (this.running !== undefined || this.abort.signal.aborted) return;
    const snapshot = history.slice();
    const signal = this.abort.signal;
    const run = async (): Promise<void> => {
      await new Promise((resolve) => setImmediate(resolve));
      for (const strategy of this.observers) {
        if (signal.aborted) return;
        try {
          // Bounded like a strategy in the pipeline, and given up at once by stop(), even by an observer that ignores its signal.
          await withTimeout(`Strategy "${strategy.name}"`, this.timeoutMs, signal, (stepSignal) =>
            strategy.observe!({
              history: snapshot,
              state: this.stateStoreFor(strategy.name),
              counter: this.counter,
              signal: stepSignal,
              emit: (event, payload) => void this.events.emit(event, payload),
              countMessage: (message) => countMessageTokens(message, this.counter),
            }),
          );
        } catch (error) {
          if (!signal.aborted) await this.events.emit("context:strategy_error", { strategy: strategy.name, error, consecutiveFailures: 1 });
        }
      }
    };
    this.running = run().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once every pass started so far has finished. */
  async flush(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /**
   * Gives up the work and waits for it to settle, which it does at once: an observer that ignores its
   * signal is no longer waited for (state it sets later is not stored). No pass starts afterwards.
   */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }
}
