// What the kit hands a module's config (or a factory) for each instance: which session, which summarizer.
import { randomUUID } from "node:crypto";
import { createRecordingSummarizer, type RecordingSummarizer } from "./recording-summarizer.js";

export interface SessionSettings {
  /**
   * The session the instance opens: a new id for every fresh instance, the same id again when the kit
   * restarts one (the restart property), so a persistent module resumes what it stored.
   */
  readonly sessionId: string;
  /**
   * A deterministic summarizer that records what it is sent. A module with a summary strategy mounts it
   * there (`createSummaryStrategy({ summarizer })`) and declares `summarizer: true`, so that the kit can
   * check each summary's declared coverage and count the calls a restart makes.
   */
  readonly summarizer: RecordingSummarizer;
}

/** Settings for a fresh instance: a session nobody has used. */
export function createSessionSettings(): SessionSettings {
  return { sessionId: `conformance-${randomUUID()}`, summarizer: createRecordingSummarizer() };
}

/** A module's config, given as it is or computed from each instance's settings. */
export function resolveConfig(config: unknown, settings: SessionSettings): unknown {
  return typeof config === "function" ? (config as (settings: SessionSettings) => unknown)(settings) : (config ?? {});
}
