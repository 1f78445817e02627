// The page's data for a transcript (replayed) or a stored session (its receipts, with a replayed timeline).
import type { ContextManager, EventHandler, Message } from "@ctxkit/core";
import type { CompactionReceipt } from "@ctxkit/core/kit";
import { CATEGORY_LIST, explainMessages, type InspectData, nextView, TEXT_LIMIT } from "./inspect-data.js";
import { recordTimeline } from "./inspect-timeline.js";
import type { StoredSession } from "./stored-session.js";
import { MessageFacts } from "../../replay/view-judge.js";
import { ViewCategorizer } from "./view-categories.js";

export interface InspectTarget {
  /** The configuration's label: a preset's name or a config file. */
  readonly configuration: string;
  /** Builds a manager of the configuration over a memory store. */
  readonly create: (onEvent: EventHandler) => Promise<ContextManager>;
  readonly budget: number;
  readonly signal?: AbortSignal;
  readonly onMessage?: (added: number) => void;
}

export interface TranscriptSource {
  readonly label: string;
  readonly format: string;
  readonly messages: readonly Message[];
}

/** A transcript replayed through the configuration: the timeline, its receipts and the next view, all recorded. */
export async function inspectTranscript(transcript: TranscriptSource, target: InspectTarget): Promise<InspectData> {
  const { categorizer, facts } = counting();
  const timeline = await recordTimeline(transcript.messages, target.create, target.budget, { ...optionsOf(target), categorizer, facts });
  return {
    title: `ctxkit inspect: ${transcript.label}`,
    source: { kind: "transcript", label: transcript.label, format: transcript.format },
    configuration: target.configuration,
    budget: target.budget,
    categories: CATEGORY_LIST,
    requests: timeline.requests,
    compactions: timeline.compactions,
    compactionsNote: `The receipts of the compactions the replay through ${target.configuration} made, in order.`,
    ...(timeline.explanation === undefined ? {} : { next: nextView(timeline.explanation) }),
    messages: explainMessages(transcript.messages, timeline.explanation, (message) => categorizer.tokensOf(message)),
    textLimit: TEXT_LIMIT,
  };
}

export interface StoredSource {
  readonly kind: "journal" | "postgres" | "redis";
  readonly label: string;
  readonly session: StoredSession;
}

/**
 * A stored session: its own receipts and explainView, as stored. A store keeps no request timeline, so the
 * timeline is derived by replaying the history through the same configuration, and the page says so.
 */
export async function inspectStored(stored: StoredSource, target: InspectTarget): Promise<InspectData> {
  const { session } = stored;
  const { categorizer, facts } = counting();
  const timeline = await recordTimeline(session.history, target.create, target.budget, { ...optionsOf(target), categorizer, facts });
  return {
    title: `ctxkit inspect: ${stored.label}`,
    source: { kind: stored.kind, label: stored.label },
    configuration: target.configuration,
    budget: target.budget,
    categories: CATEGORY_LIST,
    requests: timeline.requests.map(({ compaction: _replayed, ...request }) => request),
    timelineNote: `The session stores no request timeline: this one is derived by replaying its ${session.history.length.toLocaleString("en")} messages through ${target.configuration} at ${target.budget.toLocaleString("en")} tokens, asking for a view before each assistant message. The compactions below are the ones the session stored.`,
    // The replay's own receipts would be another session's: the stored ones are listed, marked on no request.
    compactions: session.receipts.map((receipt: CompactionReceipt) => ({ receipt })),
    compactionsNote: `The compaction receipts the session stores (listCompactions, getCompaction), oldest first.`,
    ...(session.explanation === undefined ? {} : { next: nextView(session.explanation) }),
    messages: explainMessages(session.history, session.explanation, (message) => categorizer.tokensOf(message)),
    textLimit: TEXT_LIMIT,
  };
}

/** One count per message, shared by the replay and the page's categories. */
function counting(): { categorizer: ViewCategorizer; facts: MessageFacts } {
  const facts = new MessageFacts();
  return { facts, categorizer: new ViewCategorizer(undefined, (message) => facts.tokensOf(message)) };
}

function optionsOf(target: InspectTarget): { signal?: AbortSignal; onMessage?: (added: number) => void } {
  return {
    ...(target.signal === undefined ? {} : { signal: target.signal }),
    ...(target.onMessage === undefined ? {} : { onMessage: target.onMessage }),
  };
}
