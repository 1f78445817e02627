import { describeContextManager, describeMessageStore } from "@ctxkit/conformance/vitest";
import { createContextManager } from "@ctxkit/core";
import type { ContextEngine } from "@ctxkit/core/kit";
import { MapMessageStore, type MapServer } from "./map-store.js";

// One "server" for the file: a session closed and opened again by a new store is a restart.
const server: MapServer = new Map();
describeMessageStore("MapMessageStore", (sessionId) => new MapMessageStore(server, sessionId));
describeContextManager(
  "a manager over MapMessageStore",
  ({ sessionId }) => createContextManager({ store: new MapMessageStore(server, sessionId) }),
  {
    restart: true,
    subscribe: (manager, listener) => (manager as ContextEngine).addEventHandler(listener),
  },
);
