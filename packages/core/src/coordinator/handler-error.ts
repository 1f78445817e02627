// Where isolated failures go: a hook handler or contributor that throws must be visible, never fatal.

/** Which handler failed. */
export type HandlerErrorSource =
  | { kind: "hook"; event: string; name: string | undefined }
  | { kind: "contributor"; channel: string; name: string };

export type HandlerErrorReporter = (error: unknown, source: HandlerErrorSource) => void;

function describeSource(source: HandlerErrorSource): string {
  if (source.kind === "hook") {
    return `hook handler ${source.name === undefined ? "(unnamed)" : `"${source.name}"`} for "${source.event}"`;
  }
  return `contributor "${source.name}" on channel "${source.channel}"`;
}

export const warnHandlerError: HandlerErrorReporter = (error, source) => {
  console.warn(`ctxkit: ${describeSource(source)} failed and was skipped.`, error);
};

/**
 * Wraps a reporter so that a reporter which itself throws cannot break the emitter: isolation is the
 * promise made to every other handler.
 */
export function createSafeReporter(reporter: HandlerErrorReporter = warnHandlerError): HandlerErrorReporter {
  return (error, source) => {
    try {
      reporter(error, source);
    } catch {
      // Nothing left to report to; dropping it keeps the remaining handlers running.
    }
  };
}
