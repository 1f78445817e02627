// Telemetry must never break the agent: every call into a tracer, a meter or a span goes through here.
import { diag } from "@opentelemetry/api";

/** Runs `record`; a throw is reported on OpenTelemetry's diagnostic logger and otherwise ignored. */
export function guard(what: string, record: () => void): void {
  try {
    record();
  } catch (error) {
    warn(what, error);
  }
}

/** Like `guard`, for a value: `fallback` when `compute` throws. */
export function guarded<T>(what: string, compute: () => T, fallback: () => T): T {
  try {
    return compute();
  } catch (error) {
    warn(what, error);
    return fallback();
  }
}

/** Reports on OpenTelemetry's diagnostic logger that `what` failed and was skipped. */
export function warn(what: string, error: unknown): void {
  try {
    diag.warn(`@ctxkit/opentelemetry: ${what} failed; the context manager goes on without it`, error);
  } catch {
    // A diagnostic logger that throws has nowhere left to report to.
  }
}
