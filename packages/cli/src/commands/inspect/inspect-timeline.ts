// A transcript replayed through a configuration with the replay library, recording each request: its view by
// category, the prefix it shares with the previous one, and the receipt of any compaction it made.
import type { ContextManager, EventHandler, Message } from "@ctxkit/core";
import { canExplainView, canListCompactions, type ViewExplanation } from "@ctxkit/core/kit";
import { managerSystem } from "../../replay/manager-system.js";
import { type ReplaySession, type ReplaySystem, replayCost } from "../../replay/replay-cost.js";
import { MessageFacts } from "../../replay/view-judge.js";
import type { InspectCompaction, InspectRequest } from "./inspect-data.js";
import { type CategoryTokens, emptyCategories, ViewCategorizer } from "./view-categories.js";

export interface Timeline {
  readonly requests: InspectRequest[];
  readonly compactions: InspectCompaction[];
  /** explainView for the request after the last message, when the manager can explain its views. */
  readonly explanation?: ViewExplanation;
}

export interface RecordTimelineOptions {
  readonly signal?: AbortSignal;
  /** Called after each message is added, with how many have been. */
  readonly onMessage?: (added: number) => void;
  readonly categorizer?: ViewCategorizer;
  /** The replay's cached counts; share it with `categorizer` so each message is counted once. */
  readonly facts?: MessageFacts;
}

/** Follows one replay: the views it gets, what was added between them, and the compactions' receipts. */
class TimelineRecorder {
  readonly requests: InspectRequest[] = [];
  readonly compactions: InspectCompaction[] = [];
  private previous: readonly Message[] = [];
  private previousCategories: CategoryTokens = emptyCategories();
  private added: Message[] = [];
  private historyLength = 0;
  /** The receipt id the last `context:post_compact` named, until the request that made it is recorded. */
  pendingReceipt: string | undefined;

  constructor(private readonly categorizer: ViewCategorizer) {}

  onAdd(message: Message): void {
    this.added.push(message);
    this.historyLength += 1;
  }

  async onRequest(view: readonly Message[] | "refused", compacted: boolean, manager: ContextManager | undefined): Promise<void> {
    const receiptId = this.pendingReceipt;
    this.pendingReceipt = undefined;
    // The view the manager started from: between compactions it is the previous view plus what was added since.
    const before = [...this.previousCategories];
    for (const message of this.added) this.categorizer.add(before, message);
    this.added = [];
    const index = this.requests.length;
    let compaction: number | undefined;
    if (receiptId !== undefined && manager !== undefined && canListCompactions(manager)) {
      const receipt = await manager.getCompaction(receiptId);
      if (receipt !== undefined) {
        compaction = this.compactions.length;
        const after = view === "refused" ? undefined : this.categorizer.categoriesOf(view);
        this.compactions.push({ receipt, request: index, before, ...(after === undefined ? {} : { after }) });
      }
    }
    const request = this.describe(view, compacted);
    this.requests.push(compaction === undefined ? request : { ...request, compaction });
  }

  private describe(view: readonly Message[] | "refused", compacted: boolean): InspectRequest {
    const base = { at: this.historyLength, compacted };
    if (view === "refused") {
      // Nothing was sent: the next request starts a new cache.
      this.previous = [];
      this.previousCategories = emptyCategories();
      return { ...base, tokens: emptyCategories(), total: 0, viewLength: 0, refused: true, sharedPrefix: { messages: 0, tokens: 0 } };
    }
    const tokens = this.categorizer.categoriesOf(view);
    let messages = 0;
    let shared = 0;
    // Views reuse the history's frozen objects, so identity finds the shared prefix without comparing text.
    while (messages < view.length && messages < this.previous.length && view[messages] === this.previous[messages]) {
      shared += this.categorizer.tokensOf(view[messages]!);
      messages += 1;
    }
    this.previous = view;
    this.previousCategories = tokens;
    const total = tokens.reduce((sum, value) => sum + value, 0);
    return { ...base, tokens, total, viewLength: view.length, refused: false, sharedPrefix: { messages, tokens: shared } };
  }
}

/**
 * Replays `messages` through the manager `create` builds, asking for a view at `budget` before each assistant
 * message (as `ctxkit replay` does), and returns the timeline, the receipts and the next view's explanation.
 */
export async function recordTimeline(
  messages: readonly Message[],
  create: (onEvent: EventHandler) => Promise<ContextManager>,
  budget: number,
  options: RecordTimelineOptions = {},
): Promise<Timeline> {
  const facts = options.facts ?? new MessageFacts();
  const recorder = new TimelineRecorder(options.categorizer ?? new ViewCategorizer(undefined, (message) => facts.tokensOf(message)));
  let manager: ContextManager | undefined;
  let explanation: ViewExplanation | undefined;
  const inner = managerSystem(async (onEvent) => {
    manager = await create((event, payload) => {
      if (event === "context:post_compact") {
        const receiptId = (payload as { receiptId?: string }).receiptId;
        if (receiptId !== undefined) recorder.pendingReceipt = receiptId;
      }
      return onEvent(event, payload);
    });
    return manager;
  });
  const system: ReplaySystem = {
    create(sessionBudget, tokensOf) {
      const session = inner.create(sessionBudget, tokensOf);
      const recording: ReplaySession = {
        async add(message) {
          await session.add(message);
          recorder.onAdd(message);
        },
        async request() {
          recorder.pendingReceipt = undefined;
          const view = await session.request();
          await recorder.onRequest(view, session.lastRequestCompacted?.() === true, manager);
          return view;
        },
        lastRequestCompacted: () => session.lastRequestCompacted?.(),
        async close() {
          // Read before the manager closes: a closed manager answers nothing.
          if (options.signal?.aborted !== true && manager !== undefined && canExplainView(manager))
            explanation = await manager.explainView({ tokenBudget: budget });
          await session.close?.();
        },
      };
      return recording;
    },
  };
  await replayCost(system, { file: "inspect", messages, factsByCall: new Map(), facts }, budget, {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onMessage === undefined ? {} : { onMessage: options.onMessage }),
  });
  return { requests: recorder.requests, compactions: recorder.compactions, ...(explanation === undefined ? {} : { explanation }) };
}
