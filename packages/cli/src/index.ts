// @ctxkit/cli: the `ctxkit` command's library: session readers, the replay that prices and judges views, and the inspect page.
export { readSession, type ReadSessionOptions, type SessionFile } from "./formats/read-session.js";
export { detectFormat, findReader, SESSION_READERS, FORMAT_NAMES } from "./formats/detect-format.js";
export { SessionReadError } from "./formats/session-read-error.js";
export type { SessionReader, SessionRead, SessionSource, SessionSample } from "./formats/session-reader.js";
export * from "./replay/index.js";
export { inspectTranscript, type InspectTarget, type TranscriptSource } from "./commands/inspect/build-inspect-data.js";
export type { InspectData } from "./commands/inspect/inspect-data.js";
export { renderInspectPage } from "./commands/inspect/inspect-page.js";
