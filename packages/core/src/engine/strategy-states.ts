// Each strategy's own state store, over the state the message store keeps for the session.
import { ContextArgumentError } from "../errors.js";
import { findNonJson } from "../messages/find-non-json.js";
import type { Strategy, StrategyStateStore } from "../pipeline/strategy.js";
import { declareTruncatedPastRole, truncatedPastRoleOf } from "../pipeline/truncated-past.js";
import type { StateChange } from "../store/message-store.js";
import { StoreStrategyState } from "./store-strategy-state.js";

/** Hands each strategy (and the pins) a state store under its own name, the same one every time. */
export class StrategyStates {
  readonly state: StoreStrategyState;
  private readonly stores = new Map<string, StrategyStateStore>();

  /**
   * `record` hands a change to the message store, in call order with the other writes. Once `isReleased`
   * (close() handed the store back), only work close() gave up on writes: it is said, and not kept.
   */
  constructor(record: (change: StateChange) => Promise<void>, isReleased: () => boolean = () => false) {
    this.state = new StoreStrategyState(new Map(), (change) => {
      if (!isReleased()) return record(change);
      console.warn(`ctxkit: strategy "${change.strategy}" set state "${change.key}" after close(); it was not stored`);
      return Promise.resolve();
    });
  }

  storeFor(name: string): StrategyStateStore {
    let store = this.stores.get(name);
    if (store === undefined) {
      store = this.state.storeFor(name);
      this.stores.set(name, store);
    }
    return store;
  }

  /** `strategy` given its own state store, whatever context the pipeline hands it. */
  withOwnState(strategy: Strategy): Strategy {
    const apply: Strategy["apply"] = (view, context) => {
      // A preview (explainView) hands strategies a scratch copy of their state, so what they set is not kept.
      const preview = (context as { [PREVIEW_STATES]?: PreviewStates })[PREVIEW_STATES];
      return strategy.apply(view, { ...context, state: preview?.storeFor(strategy.name) ?? this.storeFor(strategy.name) });
    };
    const wrapped: { -readonly [Key in keyof Strategy]: Strategy[Key] } = { name: strategy.name, apply };
    if (strategy.idleAfterMs !== undefined) wrapped.idleAfterMs = strategy.idleAfterMs;
    if (strategy.exceedsLimit !== undefined) wrapped.exceedsLimit = (view, context) => strategy.exceedsLimit!(view, context);
    if (strategy.observe !== undefined) wrapped.observe = (context) => strategy.observe!(context);
    const role = truncatedPastRoleOf(strategy);
    return role === undefined ? wrapped : declareTruncatedPastRole(wrapped, role);
  }
}

/** The context key a preview's scratch state rides on, through the pipeline, to each wrapped strategy. */
export const PREVIEW_STATES = Symbol("ctxkit.previewStates");

/** Each strategy's state as it stands, read through; what a strategy sets or deletes stays here and is thrown away. */
export class PreviewStates {
  private readonly stores = new Map<string, StrategyStateStore>();

  constructor(private readonly states: StrategyStates) {}

  storeFor(name: string): StrategyStateStore {
    let store = this.stores.get(name);
    if (store === undefined) {
      store = scratchOver(this.states.storeFor(name));
      this.stores.set(name, store);
    }
    return store;
  }
}

function scratchOver(base: StrategyStateStore): StrategyStateStore {
  const changed = new Map<string, unknown>();
  const deleted = new Set<string>();
  return {
    get: <T = unknown>(key: string): T | undefined =>
      (changed.has(key) ? changed.get(key) : deleted.has(key) ? undefined : base.get(key)) as T | undefined,
    keys: () => [...new Set([...base.keys().filter((key) => !deleted.has(key)), ...changed.keys()])],
    set: async (key, value) => {
      // Refused as the real store refuses it, so the strategy fails in a preview where it would fail for real.
      const problem = value === undefined ? "undefined is not JSON" : findNonJson(value)?.problem;
      if (problem !== undefined)
        throw new ContextArgumentError(`the state store (preview): set("${key}")`, [{ path: "value", message: problem }]);
      deleted.delete(key);
      changed.set(key, value);
    },
    delete: async (key) => {
      changed.delete(key);
      deleted.add(key);
    },
  };
}
