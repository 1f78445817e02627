// @ctxkit/cli: the `ctxkit` command's library: session readers, and the replay that prices and judges views.
export { readSession, type ReadSessionOptions, type SessionFile } from "./formats/read-session.js";
export { detectFormat, findReader, SESSION_READERS, FORMAT_NAMES } from "./formats/detect-format.js";
export { SessionReadError } from "./formats/session-read-error.js";
export type { SessionReader, SessionRead, SessionSource, SessionSample } from "./formats/session-reader.js";
export * from "./replay/index.js";
