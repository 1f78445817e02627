// Bounds an asynchronous step in time and by the caller's signal, and tells the step itself to stop.
import { ContextTimeoutError } from "../errors.js";

/**
 * Runs `step` with a signal that aborts when `signal` does or when `timeoutMs` passes. Rejects with the
 * caller's abort reason at once when `signal` aborts, and with `ContextTimeoutError` naming `operation`
 * when the time runs out, without waiting for a step that ignores its signal.
 */
export function withTimeout<T>(
  operation: string,
  timeoutMs: number,
  signal: AbortSignal,
  step: (signal: AbortSignal) => Promise<T> | T,
): Promise<T> {
  signal.throwIfAborted();
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: unknown) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      controller.abort(reason);
      reject(reason);
    };
    const onAbort = () => stop(signal.reason);
    const timer = setTimeout(() => stop(new ContextTimeoutError(operation, timeoutMs)), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(() => step(controller.signal))
      .then(
        (value) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
  });
}
