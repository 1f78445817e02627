// Child process of the tokens benchmark: loads one tokenizer, reports its load time, then times its counts.
import type { CountReport, CountRequest, Library } from "./count-protocol.js";

type Count = (text: string) => number;

/** Imports the library (timed as `importMs`) and builds its o200k_base encoder (timed as `initMs`). */
async function load(library: Library): Promise<{ count: Count; importMs: number; initMs: number }> {
  const imported = performance.now();
  switch (library) {
    case "ctxkit": {
      const { tiktokenCounter } = await import("@ctxkit/core");
      const importMs = performance.now() - imported;
      const built = performance.now();
      const counter = tiktokenCounter("o200k_base");
      counter.count("warm");
      return { count: (text) => counter.count(text), importMs, initMs: performance.now() - built };
    }
    case "js-tiktoken": {
      const [{ Tiktoken }, { default: ranks }] = await Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]);
      const importMs = performance.now() - imported;
      const built = performance.now();
      const encoder = new Tiktoken(ranks);
      encoder.encode("warm");
      // js-tiktoken has no count; special-token text is read as plain text, as the others do.
      return { count: (text) => encoder.encode(text, [], []).length, importMs, initMs: performance.now() - built };
    }
    case "gpt-tokenizer": {
      const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
      const importMs = performance.now() - imported;
      const built = performance.now();
      const plainText = { disallowedSpecial: new Set<string>() };
      countTokens("warm", plainText);
      return { count: (text) => countTokens(text, plainText), importMs, initMs: performance.now() - built };
    }
  }
}

function send(report: CountReport): Promise<void> {
  return new Promise((resolve) => process.send?.(report, undefined, {}, () => resolve()));
}

/**
 * The text itself on the first run, then with a different leading letter on each later one: that
 * letter joins the first piece, so no library can answer a long unbroken run from a cache of whole pieces.
 */
function variant(text: string, run: number): string {
  return run === 0 ? text : `${String.fromCharCode(97 + ((run - 1) % 26))}${text}`;
}

async function serve(request: CountRequest): Promise<void> {
  const { count, importMs, initMs } = await load(request.library);
  await send({ kind: "ready", importMs, initMs });
  for (let run = 0; run <= request.runs; run++) {
    const text = variant(request.text, run);
    const started = performance.now();
    const tokens = count(text);
    await send({ kind: "sample", milliseconds: performance.now() - started, tokens, isCold: run === 0 });
  }
  process.disconnect();
}

if (process.send !== undefined) process.once("message", (request) => void serve(request as CountRequest));
