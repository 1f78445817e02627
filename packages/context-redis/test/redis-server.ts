// Finds the test server that scripts/redis.sh started; without one, Redis tests skip on a developer's machine and fail in CI.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

const envFile = fileURLToPath(new URL("../../../.tmp/redis.env", import.meta.url));

/** `CTXKIT_REDIS_URL`, or the one scripts/redis.sh wrote; undefined when neither is there. */
export function findRedisUrl(): string | undefined {
  if (process.env["CTXKIT_REDIS_URL"]) return process.env["CTXKIT_REDIS_URL"];
  if (!existsSync(envFile)) return undefined;
  const line = readFileSync(envFile, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("CTXKIT_REDIS_URL="));
  return line?.slice("CTXKIT_REDIS_URL=".length).trim() || undefined;
}

/** A `describe` that needs the server: skipped with the reason when there is none, failing when CI is set. */
export function describeWithRedis(name: string, body: (url: string) => void): void {
  const url = findRedisUrl();
  if (url !== undefined) {
    describe(name, () => body(url));
  } else if (process.env["CI"]) {
    describe(name, () =>
      it("should find the Redis server that .ci/run starts", () => {
        throw new Error("No Redis server: .ci/run must run `bash scripts/redis.sh start` before the tests.");
      }),
    );
  } else {
    describe.skip(`${name} (skipped: no Redis server; run \`bash scripts/redis.sh start\`)`, () => body(""));
  }
}
