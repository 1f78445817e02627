// Lock-test child. `hold`: opens the session, prints "ready", and keeps it until killed.
// `try`: tries to open the session and prints the outcome as JSON. Arguments: mode storagePath sessionId.
import { createPersistentContext } from "../../src/index.js";

const [mode, storagePath, sessionId] = process.argv.slice(2) as ["hold" | "try", string, string];

try {
  const manager = await createPersistentContext({ storagePath, sessionId, tokenizer: "estimate" });
  if (mode === "hold") {
    process.stdout.write("ready\n");
    setInterval(() => {}, 60_000);
  } else {
    process.stdout.write(`${JSON.stringify({ opened: true })}\n`);
    await manager.close();
  }
} catch (error) {
  const { name, code, owner } = error as { name: string; code?: string; owner?: { pid: number } };
  process.stdout.write(`${JSON.stringify({ opened: false, name, code, ownerPid: owner?.pid })}\n`);
}
