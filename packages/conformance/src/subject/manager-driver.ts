// Drives one manager through a session and records, per request, the view, the error and the events.
import type { ContextManager, ContextUsage, Message, RequestOptions } from "@ctxkit/core";
import type { ProviderLimits, Session, ViewRequest } from "../arbitraries/session-arbitrary.js";
import { countViewTokens } from "../checks/count-view-tokens.js";
import { expectExactFit } from "../checks/expect-exact-fit.js";
import { findRequiredMessages } from "../checks/minimal-view.js";
import type { ResolvedCapabilities } from "./capabilities.js";
import type { RecordedEvent } from "./record-events.js";
import type { ManagerInstance } from "./subject.js";

export interface RequestOutcome {
  /** How many history messages had been added when the request was made. */
  readonly after: number;
  readonly budget: number;
  /** The provider the request named instead of an explicit budget, if any. */
  readonly provider?: ProviderLimits;
  /** The view, when the request returned one. */
  readonly view?: Message[];
  /** What the request threw, when it did. */
  readonly error?: unknown;
  /** The module's own figures right after the request, when it has `usage()`. */
  readonly usage?: ContextUsage | undefined;
  /** Events emitted while the request ran. */
  readonly events: readonly RecordedEvent[];
}

const COMPACTION_EVENTS = new Set(["context:pre_compact", "context:post_compact"]);

/**
 * Which budgets a property run may use. `any` is every generated budget; `above-minimal` raises each
 * one above what the history's minimal view needs (with a provider's usual safety margin on top), so
 * that "the minimal view does not fit" cannot arise and cannot hide every other failure behind it.
 */
export type BudgetRegime = "any" | "above-minimal";

/** The least budget the above-minimal regime gives a request for `history`. */
export function aboveMinimalBudget(history: readonly Message[], provider: boolean): number {
  const minimal = countViewTokens(findRequiredMessages(history).map((item) => item.message));
  return Math.ceil(minimal * 1.25) + 64 + (provider ? PROVIDER_SAFETY_MARGIN : 0);
}

/** What core's engine keeps back from a provider's window by default; a roomy budget leaves it too. */
const PROVIDER_SAFETY_MARGIN = 1_000;

export class ManagerDriver {
  constructor(
    readonly instance: ManagerInstance,
    readonly capabilities: ResolvedCapabilities,
    readonly regime: BudgetRegime = "any",
  ) {}

  get manager(): ContextManager {
    return this.instance.manager;
  }

  /** A mark to read the events emitted after it. */
  eventMark(): number {
    return this.instance.events?.length ?? 0;
  }

  eventsSince(mark: number): RecordedEvent[] {
    return this.instance.events?.slice(mark) ?? [];
  }

  compactionEventsSince(mark: number): RecordedEvent[] {
    return this.eventsSince(mark).filter((recorded) => COMPACTION_EVENTS.has(recorded.event));
  }

  /** Asks for a view with an explicit budget, or through a provider when the request names one. */
  async request(asked: Pick<ViewRequest, "budget" | "provider">, after: number): Promise<RequestOutcome> {
    const request = await this.inRegime(asked);
    const { budget, provider } = request;
    const mark = this.eventMark();
    let view: Message[] | undefined;
    let error: unknown;
    let threw = false;
    try {
      view = await this.manager.getMessagesForRequest(toRequestOptions(request));
    } catch (caught) {
      threw = true;
      error = caught;
    }
    const events = this.eventsSince(mark);
    const usage = this.capabilities.usage.enabled ? await this.readUsage() : undefined;
    const base = { after, budget, ...(provider === undefined ? {} : { provider }), events, usage };
    if (threw) return { ...base, error };
    // Every request of every property, however it was reached (resume, clear, compact, a restart…), fits.
    expectExactFit(view as Message[], budget, usage, `the request after ${after} message(s) with budget ${budget}`);
    return { ...base, view: view as Message[] };
  }

  /**
   * The request as this run's regime makes it: as asked, or with its budget raised above the minimal
   * view of the history the manager holds. A property that calls the manager itself (compact, say) asks
   * here, so its call and the requests around it use the same budget.
   */
  async inRegime(request: Pick<ViewRequest, "budget" | "provider">): Promise<Pick<ViewRequest, "budget" | "provider">> {
    if (this.regime === "any") return request;
    const floor = aboveMinimalBudget(await this.manager.getMessages(), request.provider !== undefined);
    if (request.budget >= floor) return request;
    if (request.provider === undefined) return { budget: floor };
    const { maxOutputTokens } = request.provider;
    return { budget: floor, provider: { contextWindow: floor + maxOutputTokens, maxOutputTokens } };
  }

  async readUsage(): Promise<ContextUsage | undefined> {
    return (this.manager as ContextManager & { usage(): Promise<ContextUsage | undefined> }).usage();
  }

  /**
   * Adds the session's messages one at a time (as copies, so the generated value stays pristine) and
   * makes its requests. Returns the objects handed to the manager and every request's outcome.
   */
  async walk(session: Session): Promise<{ given: Message[]; outcomes: RequestOutcome[] }> {
    const given = structuredClone(session.history);
    const outcomes: RequestOutcome[] = [];
    let added = 0;
    for (const request of session.requests) {
      while (added < request.after) await this.manager.addMessage(given[added++]!);
      outcomes.push(await this.request(request, added));
    }
    return { given, outcomes };
  }
}

/** Request options for a request: `tokenBudget`, or a provider advertising the request's limits. */
export function toRequestOptions(request: Pick<ViewRequest, "budget" | "provider">): RequestOptions {
  if (request.provider === undefined) return { tokenBudget: request.budget };
  const { contextWindow, maxOutputTokens } = request.provider;
  return { provider: { name: "ctxkit-conformance", getInfo: () => ({ defaults: { contextWindow, maxOutputTokens } }) } };
}

/** The view's tokens: the module's own figure when it reports one, otherwise core's exact count. */
export function viewTokens(outcome: RequestOutcome): number {
  if (outcome.usage !== undefined) return outcome.usage.tokens;
  return countViewTokens(outcome.view ?? []);
}
