// The PostgreSQL server the bench may use: CTXKIT_POSTGRES_URL, or the one `bash scripts/postgres.sh start` wrote.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const envFile = fileURLToPath(new URL("../../../.tmp/postgres.env", import.meta.url));

export function findPostgresUrl(): string | undefined {
  if (process.env["CTXKIT_POSTGRES_URL"]) return process.env["CTXKIT_POSTGRES_URL"];
  if (!existsSync(envFile)) return undefined;
  return (
    readFileSync(envFile, "utf8")
      .match(/^CTXKIT_POSTGRES_URL=(.+)$/m)?.[1]
      ?.trim() || undefined
  );
}
