// A one-line progress report on stderr, redrawn in place, only when stderr is a terminal.
import type { CommandStream } from "./terminal.js";

/** How often the line is redrawn at most. */
const REDRAW_MS = 100;

export interface Progress {
  update(line: string): void;
  /** Clears the line, so what follows starts on a clean one. */
  done(): void;
}

export function createProgress(stream: CommandStream): Progress {
  if (stream.isTTY !== true) return { update() {}, done() {} };
  let last = 0;
  let shown = false;
  return {
    update(line) {
      const now = Date.now();
      if (now - last < REDRAW_MS) return;
      last = now;
      shown = true;
      stream.write(`\r\u001b[2K${line}`);
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
      shown = false;
    },
  };
}

/** Elapsed time as a person reads it: 9s, 1m 05s. */
export function formatElapsed(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}
