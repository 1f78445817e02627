// Which session ids the database can keep apart: PostgreSQL text holds neither a NUL nor half of a surrogate pair.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `sessionId` cannot name a session, or undefined when it can. A NUL is refused by the server; a lone
 * surrogate is stored as U+FFFD, so two ids differing only there would open one session and read each
 * other's messages.
 */
export function sessionIdProblem(sessionId: string): string | undefined {
  if (sessionId.includes("\u0000")) return "must not contain a NUL character (U+0000): PostgreSQL text cannot hold it";
  const surrogate = LONE_SURROGATE.exec(sessionId);
  if (surrogate !== null) {
    return `must be well-formed Unicode: the lone surrogate at index ${surrogate.index} would be stored as U+FFFD, the same as another id's`;
  }
  return undefined;
}
