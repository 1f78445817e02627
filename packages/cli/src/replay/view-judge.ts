// Judges every system's views the same way: core's tool-pair check, core's exact counter, preservation, stability.
import { type Message, tiktokenCounter } from "@ctxkit/core";
import { checkToolPairs, countMessageTokens, isInstruction } from "@ctxkit/core/kit";

/** What one replay's views came to; sums, so replays add up. */
export interface ViewTotals {
  requests: number;
  refused: number;
  /** Views with an entry that is not a message (LangChain's `[undefined]`). */
  malformed: number;
  /** Views with at least one tool-pair violation. */
  pairViolations: number;
  overBudget: number;
  lostSystem: number;
  lostLatestUser: number;
  /** Requests that compacted: ctxkit's pre_compact, or a stateless view that dropped or changed anything. */
  compactions: number;
  /** Sum over views of view tokens / budget. */
  fillSum: number;
  /** Views that follow a non-empty view, and how many of them begin with it. */
  comparableViews: number;
  extendingViews: number;
}

export function emptyTotals(): ViewTotals {
  return {
    requests: 0,
    refused: 0,
    malformed: 0,
    pairViolations: 0,
    overBudget: 0,
    lostSystem: 0,
    lostLatestUser: 0,
    compactions: 0,
    fillSum: 0,
    comparableViews: 0,
    extendingViews: 0,
  };
}

export function addTotals(into: ViewTotals, from: ViewTotals): void {
  for (const key of Object.keys(into) as (keyof ViewTotals)[]) into[key] += from[key];
}

/** Exact tokens and a structural key per message object, computed once: views mostly reuse their objects. */
export class MessageFacts {
  private readonly counter = tiktokenCounter("o200k_base");
  private readonly tokens = new WeakMap<Message, number>();
  private readonly keys = new WeakMap<Message, string>();

  tokensOf(message: Message): number {
    let tokens = this.tokens.get(message);
    if (tokens === undefined) {
      tokens = countMessageTokens(message, this.counter);
      this.tokens.set(message, tokens);
    }
    return tokens;
  }

  /** Equal for messages the model would see as equal: role, content, calls, id, name (never metadata). */
  keyOf(message: Message): string {
    let key = this.keys.get(message);
    if (key === undefined) {
      key = JSON.stringify([
        message.role,
        message.content,
        message.role === "assistant" ? (message.tool_calls ?? null) : null,
        message.role === "tool" ? message.tool_call_id : null,
        message.name ?? null,
      ]);
      this.keys.set(message, key);
    }
    return key;
  }
}

/** Follows one replay: call `judge` after every request with the history so far and the view (or a refusal). */
export class ViewJudge {
  readonly totals = emptyTotals();
  private previousKeys: string[] | undefined;

  /** `facts` may be shared with other judges of the same messages, so each message is counted once. */
  constructor(
    private readonly budget: number,
    private readonly facts = new MessageFacts(),
  ) {}

  judge(history: readonly Message[], view: readonly Message[] | "refused", compacted: boolean | undefined, isMalformed = false): void {
    const totals = this.totals;
    totals.requests += 1;
    if (view === "refused") {
      totals.refused += 1;
      if (compacted === true) totals.compactions += 1;
      this.previousKeys = undefined;
      return;
    }
    if (isMalformed) totals.malformed += 1;
    const keys = view.map((message) => this.facts.keyOf(message));
    if (checkToolPairs(view).length > 0) totals.pairViolations += 1;
    const tokens = view.reduce((sum, message) => sum + this.facts.tokensOf(message), 0);
    if (tokens > this.budget) totals.overBudget += 1;
    totals.fillSum += tokens / this.budget;
    const present = new Set(keys);
    if (history.some((message) => isInstruction(message) && !present.has(this.facts.keyOf(message)))) totals.lostSystem += 1;
    const latestUser = history.findLast((message) => message.role === "user");
    if (latestUser !== undefined && !present.has(this.facts.keyOf(latestUser))) totals.lostLatestUser += 1;
    if (compacted ?? this.differsFromHistory(history, view, keys)) totals.compactions += 1;
    // An empty previous view is extended by anything: it says nothing about a cacheable prefix.
    if (this.previousKeys !== undefined && this.previousKeys.length > 0) {
      totals.comparableViews += 1;
      const previous = this.previousKeys;
      if (previous.length <= keys.length && previous.every((key, index) => keys[index] === key)) totals.extendingViews += 1;
    }
    this.previousKeys = keys;
  }

  /** A stateless trimmer compacted when its view is anything but the whole history, unchanged. */
  private differsFromHistory(history: readonly Message[], view: readonly Message[], keys: readonly string[]): boolean {
    if (history.length !== view.length) return true;
    return history.some((message, index) => message !== view[index] && this.facts.keyOf(message) !== keys[index]);
  }
}
