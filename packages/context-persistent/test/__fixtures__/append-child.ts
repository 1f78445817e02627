// Crash-test child: appends numbered messages to a session until it is killed, printing each index as its add resolves.
// Arguments: storagePath sessionId durability runId.
import { createPersistentContext } from "../../src/index.js";
import type { Durability } from "../../src/message-store.js";

const [storagePath, sessionId, durability, runId] = process.argv.slice(2) as [string, string, Durability, string];
// Several adds in flight, as an agent adding tool results at once would have: batches form under `batch`.
const IN_FLIGHT = durability === "always" ? 4 : 16;

const manager = await createPersistentContext({ storagePath, sessionId, durability, tokenizer: "estimate" });
// stdout is a pipe, and pipes are written synchronously on Linux: a printed line is out before a kill lands.
process.stdout.write("ready\n");

let next = 0;
/** Sizes up to ~20 kB, so that some batches are large enough for a kill to tear a write in the middle. */
function content(index: number): string {
  const size = (index * 7_919) % 5 === 0 ? ((index * 104_729) % 20_000) + 1 : 40;
  return `${runId}:${index}:`.padEnd(size, "x");
}

async function appendForever(): Promise<void> {
  for (;;) {
    const index = next;
    next += 1;
    await manager.addMessage({ role: index % 2 === 0 ? "user" : "assistant", content: content(index) });
    process.stdout.write(`${index}\n`);
  }
}

await Promise.all(Array.from({ length: IN_FLIGHT }, () => appendForever()));
