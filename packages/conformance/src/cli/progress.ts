// Live progress on a terminal: one line, rewritten in place, showing the property and its run count.
import type { ProgressEvent } from "../runner/run-conformance.js";

export interface TextOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Redraws at most every 80 ms, so progress costs nothing measurable even at thousands of runs. */
export function createProgressLine(output: TextOutput): { update(event: ProgressEvent): void; clear(): void } {
  let lastDrawn = 0;
  let isShown = false;
  const clear = () => {
    if (isShown) output.write("\r\u001b[K");
    isShown = false;
  };
  return {
    update(event) {
      if (output.isTTY !== true) return;
      if (event.type === "check-end") return clear();
      if (event.type !== "run" && event.type !== "check-start") return;
      const now = performance.now();
      if (event.type === "run" && now - lastDrawn < 80) return;
      lastDrawn = now;
      const text =
        event.type === "check-start"
          ? `  …     ${event.name}`
          : `  …     ${event.name}  ${event.shrinking ? `shrinking a failure (run ${event.run})` : `${event.run}/${event.runs}`}`;
      output.write(`\r\u001b[K${text}`);
      isShown = true;
    },
    clear,
  };
}
