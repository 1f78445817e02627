// Bounds an asynchronous step in time and by the caller's signal, and tells the step itself to stop.
import { ContextArgumentError, ContextTimeoutError } from "../errors.js";
import { durationMsProblem } from "../modules/duration-ms.js";

/**
 * Runs `step` with a signal that aborts when `signal` does or when `timeoutMs` passes. Rejects with the
 * caller's abort reason at once when `signal` aborts, and with `ContextTimeoutError` naming `operation`
 * when the time runs out, without waiting for a step that ignores its signal. A `timeoutMs` no timer can
 * honour (not a whole number from 1 to 2^31−1: Node runs a longer timer after 1 ms) throws
 * `ContextArgumentError` naming it, before `step` runs.
 */
export function withTimeout<T>(
  operation: string,
  timeoutMs: number,
  signal: AbortSignal,
  step: (signal: AbortSignal) => Promise<T> | T,
): Promise<T> {
  const problem = durationMsProblem(timeoutMs);
  if (problem !== undefined) throw new ContextArgumentError(`withTimeout (${operation})`, [{ path: "timeoutMs", message: problem }]);
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
