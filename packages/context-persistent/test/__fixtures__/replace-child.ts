// Crash-test child: opens a session's journal and replaces its content with a payload file, to be killed mid-way.
// Arguments: directory sessionId payloadFile (JSON: { messages, state: [strategy, [key, value][]][] }).
import { readFileSync } from "node:fs";
import type { Message } from "@ctxkit/core";
import { JsonlFileStore } from "../../src/jsonl-file-store.js";

const [directory, sessionId, payloadFile] = process.argv.slice(2) as [string, string, string];
const payload = JSON.parse(readFileSync(payloadFile, "utf8")) as { messages: Message[]; state: [string, [string, unknown][]][] };
const state = new Map(payload.state.map(([strategy, values]) => [strategy, new Map(values)]));

const store = new JsonlFileStore({ directory, sessionId });
await store.open();
await store.load();
// stdout is a pipe, written synchronously on Linux: the line is out before the parent's kill can land.
process.stdout.write("replacing\n");
await store.replace(payload.messages, state);
process.stdout.write("replaced\n");
// Stays alive: the parent kills it either way, so a finished replace is also followed by a crash.
setInterval(() => {}, 1_000);
