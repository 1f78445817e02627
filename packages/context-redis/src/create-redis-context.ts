// Opens a shared session from a config: the server (a URL or a client), the session id, the keys.
import type { ContextEngine } from "@ctxkit/core/kit";
import type { RedisContextConfig } from "./config-schema.js";
import { redisModule } from "./module.js";

/** A manager over a Redis session: core's engine, with `close()`, `sessionId` and `location`. */
export type RedisContextManager = ContextEngine;

/**
 * Validates `config` (every bad key in one `ContextConfigError`), connects, reads the session and returns
 * the manager. Every worker that opens the same `sessionId` shares the session. Close the manager to
 * release its connection (a `client` you passed stays open: it is yours).
 * @deprecated A thin alias kept for existing code, as its three siblings are. Build managers one way:
 * `createContextManager({ store: new RedisMessageStore({ url, sessionId }), ...config })` from `@ctxkit/core`.
 */
export function createRedisContext(config: RedisContextConfig): Promise<RedisContextManager> {
  return redisModule.createContext(config);
}
