// Each strategy's own state store, over the state the message store keeps for the session.
import type { Strategy, StrategyStateStore } from "../pipeline/strategy.js";
import type { StateChange } from "../store/message-store.js";
import { StoreStrategyState } from "./store-strategy-state.js";

/** Hands each strategy (and the pins) a state store under its own name, the same one every time. */
export class StrategyStates {
  readonly state: StoreStrategyState;
  private readonly stores = new Map<string, StrategyStateStore>();

  /** `record` hands a change to the message store, in call order with the other writes. */
  constructor(record: (change: StateChange) => Promise<void>) {
    this.state = new StoreStrategyState(new Map(), record);
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
    const apply: Strategy["apply"] = (view, context) => strategy.apply(view, { ...context, state: this.storeFor(strategy.name) });
    const wrapped: { -readonly [Key in keyof Strategy]: Strategy[Key] } = { name: strategy.name, apply };
    if (strategy.idleAfterMs !== undefined) wrapped.idleAfterMs = strategy.idleAfterMs;
    if (strategy.exceedsLimit !== undefined) wrapped.exceedsLimit = (view, context) => strategy.exceedsLimit!(view, context);
    if (strategy.observe !== undefined) wrapped.observe = (context) => strategy.observe!(context);
    return wrapped;
  }
}
