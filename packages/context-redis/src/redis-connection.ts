// The store's connection to the server: opened so that it fails fast, never resends, and never waits past its bounds.
import { Redis } from "ioredis";
import type { RedisClient } from "./config-schema.js";

/**
 * A connection of the store's own. A command whose connection dropped may have run, so none is ever
 * resent after a reconnect (that could store an append twice): it fails, and the store stops.
 */
export function createConnection(url: string, connectTimeoutMs: number): Redis {
  let isOpen = false;
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    // Not at open, where a refused connection is the answer; later, an idle connection the server dropped is replaced.
    retryStrategy: (attempt) => (isOpen ? Math.min(attempt * 100, 1_000) : null),
  });
  client.once("ready", () => (isOpen = true));
  return client;
}

/** Resolves once `client` answers; a connection error (refused, auth, a database the server lacks) rejects with its reason. */
export async function whenConnected(client: RedisClient, ownsClient: boolean): Promise<void> {
  let failure: Error | undefined;
  const remember = (error: Error) => (failure ??= error);
  client.on("error", remember);
  try {
    if (client.status === "wait") await client.connect();
    await client.ping();
  } catch (error) {
    throw failure ?? error;
  } finally {
    client.off("error", remember);
  }
  // An idle connection's error must not crash the process: the next command reports it.
  if (ownsClient) client.on("error", () => {});
  // ioredis reports a failed AUTH or SELECT as an event and carries on: refuse rather than use another database.
  if (failure !== undefined) throw failure;
}

/** Rejects with `reason` unless `promise` settles within `timeoutMs`. */
export function bounded<T>(promise: Promise<T>, timeoutMs: number, reason: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(reason)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The server, without its password: `host:port/db`, or `cluster` for a cluster client. */
export function describeServer(options: { readonly url?: string; readonly client?: RedisClient }): string {
  if (options.url !== undefined) {
    const url = new URL(options.url);
    return `${url.hostname}:${url.port || "6379"}${url.pathname.length > 1 ? url.pathname : ""}`;
  }
  const client = options.client as Redis & { isCluster?: boolean };
  return client.isCluster === true
    ? "cluster"
    : `${client.options.host ?? "localhost"}:${client.options.port ?? 6379}/${client.options.db ?? 0}`;
}
