// The secrets of a store's connection string, kept out of every error it reports.
import { credentialsOf } from "@ctxkit/core/kit";

/**
 * The password of `connectionString`: of a `postgres://` URL (and its user:password, and a `password=`
 * query parameter), of a `key=value` string's `password=`, and `PGPASSWORD`, which node-postgres sends
 * when the string gives none.
 */
export function postgresCredentials(connectionString: string): readonly string[] {
  const keyword = /(?:^|\s)password\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(\S+))/.exec(connectionString);
  return [
    ...credentialsOf({ url: connectionString }),
    ...credentialsOf({ password: keyword?.[1] ?? keyword?.[2] }),
    ...credentialsOf({ password: process.env["PGPASSWORD"] }),
  ];
}
