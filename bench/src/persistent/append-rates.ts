// Appends per second through a persistent manager, and through a raw `fs` loop with the same fsync policy.
import { open } from "node:fs/promises";
import { join } from "node:path";
import { createPersistentContext, type Durability } from "@ctxkit/context-persistent";
import type { Message } from "@ctxkit/core";
import { median } from "../lib/measure.js";
import { withJournalFolder } from "./journal-folder.js";

export interface AppendCase {
  readonly durability: Durability;
  /** Callers each awaiting their own add, one after another, as parallel tool results arrive. */
  readonly inFlight: number;
  readonly appends: number;
}

export interface AppendRate extends AppendCase {
  readonly ctxkitPerSecond: number;
  readonly rawPerSecond: number;
}

async function ctxkitRate({ durability, inFlight, appends }: AppendCase, messages: readonly Message[]): Promise<number> {
  return withJournalFolder(async (storagePath) => {
    const manager = await createPersistentContext({ storagePath, durability, tokenizer: "estimate" });
    let next = 0;
    const caller = async () => {
      while (next < appends) await manager.addMessage(messages[next++ % messages.length]!);
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: inFlight }, caller));
    const seconds = (performance.now() - started) / 1000;
    await manager.close();
    return appends / seconds;
  });
}

/**
 * The same records, serialized the same way, written with one write per group and one fsync per group
 * unless the mode is `none`: groups of one under `always`, groups of `inFlight` otherwise (what group
 * commit can at best achieve).
 */
async function rawRate({ durability, inFlight, appends }: AppendCase, messages: readonly Message[]): Promise<number> {
  return withJournalFolder(async (folder) => {
    const handle = await open(join(folder, "raw.jsonl"), "a");
    const group = durability === "always" ? 1 : inFlight;
    const started = performance.now();
    for (let first = 0; first < appends; first += group) {
      let text = "";
      for (let index = first; index < Math.min(first + group, appends); index += 1) {
        text += `${JSON.stringify({ v: 1, type: "add", message: messages[index % messages.length] })}\n`;
      }
      await handle.write(text);
      if (durability !== "none") await handle.sync();
    }
    const seconds = (performance.now() - started) / 1000;
    // Untimed: no dirty pages are left to slow down the next measurement's fsyncs (ctxkit's close() does the same).
    await handle.sync();
    await handle.close();
    return appends / seconds;
  });
}

/** The disk's speed wanders from second to second: rounds alternate the two loops, and medians are kept. */
export async function measureAppendRates(
  cases: readonly AppendCase[],
  messages: readonly Message[],
  rounds: number,
): Promise<AppendRate[]> {
  const rates: AppendRate[] = [];
  for (const appendCase of cases) {
    const ctxkit: number[] = [];
    const raw: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) raw.push(await rawRate(appendCase, messages));
      ctxkit.push(await ctxkitRate(appendCase, messages));
      if (round % 2 === 1) raw.push(await rawRate(appendCase, messages));
    }
    rates.push({ ...appendCase, ctxkitPerSecond: median(ctxkit), rawPerSecond: median(raw) });
  }
  return rates;
}
