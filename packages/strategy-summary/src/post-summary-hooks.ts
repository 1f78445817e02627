// Post-summary hooks: after a strategy puts a new summary in the view, reminders (an open todo list, the files in play) follow it as synthetic messages.
import type { Message } from "@ctxkit/core";
import {
  createViewDraft,
  deepFreeze,
  type Strategy,
  type StrategyContext,
  type StrategyResult,
  type ViewDraft,
  type ViewEntry,
} from "@ctxkit/core/kit";
import { isSummaryEntry, readSummaryEntry, type SummaryContent } from "./summary-message.js";
import { neutralizeTags } from "./neutralize-tags.js";

/** The `metadata.ctxkit.source` of a reminder message, and its entry's origin. */
export const REMINDER_SOURCE = "reminder";

export interface PostSummaryHookContext {
  /** What the new summary says about itself: its text, covered range and file lists. */
  readonly summary: SummaryContent;
  readonly history: readonly Message[];
}

/** Returns a reminder's text, or nothing when it has nothing to say. */
export type PostSummaryHook = (context: PostSummaryHookContext) => string | undefined;

function createReminderEntry(text: string, countMessage: (message: Message) => number): ViewEntry {
  const message: Message = {
    role: "user",
    content: `<reminder>\n${neutralizeTags(text)}\n</reminder>`,
    metadata: { ctxkit: { source: REMINDER_SOURCE } },
  };
  return deepFreeze({ message, tokens: countMessage(message), source: { kind: "synthetic", origin: REMINDER_SOURCE } });
}

const isReminderEntry = (entry: ViewEntry): boolean => entry.source.kind === "synthetic" && entry.source.origin === REMINDER_SOURCE;

/**
 * `strategy` (a summary or session-memory strategy), and after each run that puts a new summary in the
 * view, one reminder message per hook that returns text, right after the summary. Earlier reminders
 * are replaced. Reminders are left out when, with them, the view would not be smaller than before.
 */
export function withPostSummaryHooks(strategy: Strategy, hooks: readonly PostSummaryHook[]): Strategy {
  async function apply(view: ViewDraft, context: StrategyContext): Promise<StrategyResult> {
    const result = await strategy.apply(view, context);
    if (!result.applied) return result;
    const previous = new Set(view.entries.map((entry) => entry.message));
    const position = result.view.entries.findIndex((entry) => isSummaryEntry(entry) && !previous.has(entry.message));
    const summary = position < 0 ? undefined : readSummaryEntry(result.view.entries[position]!);
    if (summary === undefined) return result;
    const reminders = hooks
      .map((hook) => hook({ summary, history: context.history }))
      .filter((text): text is string => typeof text === "string" && text.trim() !== "")
      .map((text) => createReminderEntry(text, context.countMessage));
    const entries = result.view.entries.filter((entry) => !isReminderEntry(entry));
    const summaryAt = entries.indexOf(result.view.entries[position]!);
    entries.splice(summaryAt + 1, 0, ...reminders);
    const next = createViewDraft(entries);
    return next.tokens < view.tokens ? { view: next, applied: true } : result;
  }
  return { ...strategy, name: strategy.name, apply };
}

const TODO_TOOL = /todo/i;

/**
 * Reminds of the latest todo list the agent wrote with a tool whose name mentions "todo" (TodoWrite,
 * todo_write, update_todos…): its arguments, as the agent last gave them.
 */
export function todoListReminder(): PostSummaryHook {
  return ({ history }) => {
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const message = history[index]!;
      if (message.role !== "assistant") continue;
      const call = message.tool_calls?.findLast((candidate) => TODO_TOOL.test(candidate.function.name));
      if (call !== undefined) return `The open todo list, as last written with ${call.function.name}:\n${call.function.arguments}`;
    }
    return undefined;
  };
}

/** Reminds of the files the summarized part changed and read, newest last, at most `max` of each. */
export function currentFilesReminder(options: { max?: number } = {}): PostSummaryHook {
  const { max = 10 } = options;
  return ({ summary }) => {
    const lines = [
      ...(summary.modifiedFiles.length > 0 ? [`Files changed: ${summary.modifiedFiles.slice(-max).join(", ")}`] : []),
      ...(summary.readFiles.length > 0 ? [`Files read: ${summary.readFiles.slice(-max).join(", ")}`] : []),
    ];
    return lines.length === 0 ? undefined : `Current files (re-read one before editing it):\n${lines.join("\n")}`;
  };
}
