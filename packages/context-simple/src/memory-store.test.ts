import { describeMessageStore } from "@ctxkit/conformance/vitest";
import { MemoryMessageStore } from "./index.js";

// One instance per session: reopened after close(), it gives back what it held, as a restart would.
const sessions = new Map<string, MemoryMessageStore>();
describeMessageStore(
  "MemoryMessageStore",
  (sessionId) => sessions.get(sessionId) ?? sessions.set(sessionId, new MemoryMessageStore(sessionId)).get(sessionId)!,
);
