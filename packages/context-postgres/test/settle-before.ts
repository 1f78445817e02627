// A generous guard for calls that must settle on their own: how a test tells "bounded" from "hangs" without timing it.

export type Settled = { readonly settled: true; readonly value?: unknown; readonly error?: unknown } | { readonly settled: false };

/** How the call ended, or `settled: false` if it was still pending after `guardMs`. */
export function settleBefore(promise: Promise<unknown>, guardMs = 20_000): Promise<Settled> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false }), guardMs);
    promise.then(
      (value: unknown) => {
        clearTimeout(timer);
        resolve({ settled: true, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ settled: true, error });
      },
    );
  });
}
