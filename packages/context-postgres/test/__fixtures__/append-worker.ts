// A worker process: appends `count` messages to a shared session, printing `ack <i>` once each is stored.
import { createPostgresContext } from "../../src/create-postgres-context.js";

const [connectionString, schema, sessionId, writer, count] = process.argv.slice(2);
const manager = await createPostgresContext({
  connectionString: connectionString!,
  schema: schema!,
  sessionId: sessionId!,
  tokenizer: "estimate",
});
for (let index = 0; index < Number(count); index += 1) {
  await manager.addMessage({ role: "user", content: `${writer}:${index}` });
  process.stdout.write(`ack ${index}\n`);
}
await manager.close();
process.stdout.write("done\n");
