// Finds the test server that scripts/postgres.sh started; without one, Postgres tests skip on a developer's machine and fail in CI.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, it } from "vitest";

const envFile = fileURLToPath(new URL("../../../.tmp/postgres.env", import.meta.url));

/** `CTXKIT_POSTGRES_URL`, or the one scripts/postgres.sh wrote; undefined when neither is there. */
export function findPostgresUrl(): string | undefined {
  if (process.env["CTXKIT_POSTGRES_URL"]) return process.env["CTXKIT_POSTGRES_URL"];
  if (!existsSync(envFile)) return undefined;
  const line = readFileSync(envFile, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("CTXKIT_POSTGRES_URL="));
  return line?.slice("CTXKIT_POSTGRES_URL=".length).trim() || undefined;
}

/** A `describe` that needs the server: skipped with the reason when there is none, failing when CI is set. */
export function describeWithPostgres(name: string, body: (connectionString: string) => void): void {
  const url = findPostgresUrl();
  if (url !== undefined) {
    describe(name, () => body(url));
  } else if (process.env["CI"]) {
    describe(name, () =>
      it("should find the PostgreSQL server that .ci/run starts", () => {
        throw new Error("No PostgreSQL server: .ci/run must run `bash scripts/postgres.sh start` before the tests.");
      }),
    );
  } else {
    describe.skip(`${name} (skipped: no PostgreSQL server; run \`bash scripts/postgres.sh start\`)`, () => body(""));
  }
}

/** Runs `body` on one plain connection, apart from any store's pool: what a test does behind the store's back. */
export async function withClient<T>(connectionString: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}
