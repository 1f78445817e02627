// The secrets of a store's connection (a URL's password, an injected client's password), kept out of every error it reports.
import { credentialsOf, redactCredentials } from "@ctxkit/core/kit";
import type { RedisClient } from "./config-schema.js";

interface ClientCredentials {
  readonly username?: string;
  readonly password?: string;
  readonly redisOptions?: { readonly username?: string; readonly password?: string };
}

/** The secrets to remove: from the URL, or from the options of the client the caller gave (a cluster's node options too). */
export function redisCredentials(options: { readonly url?: string; readonly client?: RedisClient }): readonly string[] {
  if (options.url !== undefined) return credentialsOf({ url: options.url });
  const clientOptions = (options.client as { options?: ClientCredentials } | undefined)?.options;
  return [
    ...credentialsOf({ username: clientOptions?.username, password: clientOptions?.password }),
    ...credentialsOf({ username: clientOptions?.redisOptions?.username, password: clientOptions?.redisOptions?.password }),
  ];
}

/**
 * The driver's error as a store error's cause: ioredis hangs the failed command on its error, and a
 * failed AUTH (sent inside HELLO) carries the password among its arguments, which printing the error shows.
 */
export function redactedCause(error: unknown, secrets: readonly string[]): Error {
  return redactCredentials(error, secrets);
}
