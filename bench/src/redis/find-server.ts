// The Redis server the bench may use: CTXKIT_REDIS_URL, or the one `bash scripts/redis.sh start` wrote.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const envFile = fileURLToPath(new URL("../../../.tmp/redis.env", import.meta.url));

export function findRedisUrl(): string | undefined {
  if (process.env["CTXKIT_REDIS_URL"]) return process.env["CTXKIT_REDIS_URL"];
  if (!existsSync(envFile)) return undefined;
  return (
    readFileSync(envFile, "utf8")
      .match(/^CTXKIT_REDIS_URL=(.+)$/m)?.[1]
      ?.trim() || undefined
  );
}
