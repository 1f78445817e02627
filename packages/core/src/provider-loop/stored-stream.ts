// A provider's event stream handed to the caller as it arrives, whose assembled answer is stored only once it ended whole.
import { ContextStreamError } from "./context-stream-error.js";
import type { TurnInFlight } from "./turn-in-flight.js";

/** Folds a stream's events into the response a non-streamed call would have returned. */
export interface StreamAssembly<Event, Final> {
  /** Takes the next event; throws (a `ContextStreamError`) when the event is the provider's error. */
  add(event: Event): void;
  /** The whole response, or `undefined` when the stream ended before its last event. */
  finish(): Final | undefined;
}

/** A streamed call: iterate its events; the answer is stored once the last one was read. */
export interface ContextStream<Event, Final> extends AsyncIterable<Event> {
  /**
   * Reads what is left of the stream (or waits for the loop reading it), and resolves to the assembled
   * response once it is stored. Rejects when the stream failed or was left early: nothing was stored then.
   */
  finalResponse(): Promise<Final>;
}

export interface StoredStreamOptions<Event, Final> {
  /** The turn that added the caller's messages; what it added is taken back out unless the stream ends whole. */
  turn: TurnInFlight;
  /** The accepted stream (its request already answered 200). */
  events: AsyncIterable<Event>;
  assembly: StreamAssembly<Event, Final>;
  /** Names the API in a `ContextStreamError`. */
  provider: string;
  /** The request's signal: the SDKs end an aborted stream quietly, so its reason is what the reader is told. */
  signal?: AbortSignal | null | undefined;
  /** Stores the assembled response as a non-streamed call stores its response (the answer, then the usage). */
  store(final: Final): Promise<void>;
}

/**
 * Passes each event on as it arrives and stores the assembled response after the last one. A stream that
 * fails midway (a network error, the provider's error event, an aborted signal), ends short, or that the
 * caller leaves early (`break`) stores nothing: the turn's messages are taken back out, as for a failed call.
 * One reader only: iterate it once, or call `finalResponse()`.
 */
export function storedStream<Event, Final>(options: StoredStreamOptions<Event, Final>): ContextStream<Event, Final> {
  const { turn, events, assembly, provider } = options;
  let started = false;
  let settle: { resolve(final: Final): void; reject(error: unknown): void } | undefined;
  const settled = new Promise<Final>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Read only through finalResponse(): a caller who only iterates must not see an unhandled rejection.
  settled.catch(() => {});

  async function* read(): AsyncGenerator<Event> {
    let stored = false;
    // Stays as it is when the reader leaves (a `break` returns through the `yield` without an error).
    let failure: unknown = new ContextStreamError(provider, "it was left before its end");
    try {
      for await (const event of events) {
        assembly.add(event);
        yield event;
      }
      const final = assembly.finish();
      if (final === undefined) {
        if (options.signal?.aborted) throw options.signal.reason;
        throw new ContextStreamError(provider, "it ended before the provider's last event");
      }
      await options.store(final);
      stored = true;
      settle?.resolve(final);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      if (!stored) {
        try {
          await turn.undo();
        } catch {
          // The stream's own failure is what the caller must see.
        }
        settle?.reject(failure);
      }
    }
  }

  const iterator = read();
  return {
    [Symbol.asyncIterator]() {
      if (started) throw new ContextStreamError(provider, "it was iterated twice; a stream has one reader");
      started = true;
      return iterator;
    },
    async finalResponse() {
      if (!started) {
        started = true;
        for await (const _event of { [Symbol.asyncIterator]: () => iterator }) {
          // Read to the end: the events are assembled and stored by the reader.
        }
      }
      return settled;
    },
  };
}
