// Watches every call into the module: which are still waiting (what a timed-out step names) and what the
// runs exercised (views built, compactions announced, calls made), for the "never exercised" rule.
import type { ContextManager } from "@ctxkit/core";
import type { ManagerInstance, ResolvedSubject } from "../subject/subject.js";

export interface PendingCalls {
  /** Counts `label` as waiting until `result` settles; a value that is not a promise is not waiting. */
  track<T>(label: string, result: T): T;
  /** The labels still waiting, oldest first. */
  list(): string[];
}

export function createPendingCalls(): PendingCalls {
  const waiting: string[] = [];
  return {
    track(label, result) {
      if (!(result instanceof Promise)) return result;
      waiting.push(label);
      const settle = () => {
        const index = waiting.indexOf(label);
        if (index !== -1) waiting.splice(index, 1);
      };
      result.then(settle, settle);
      return result;
    },
    list: () => [...waiting],
  };
}

// Tally keys the runner keeps for every property, beside the ones a property adds itself:
// `views` (requests, `getMessagesForRequest` or `recoverOverflow`, that returned a view), `compactions`
// (`context:pre_compact` events, present only when the manager's events can be heard), `rejected` (calls
// that rejected) and `calls:<method>` (settled calls of each manager method, e.g. `calls:compact`).
const VIEW_METHODS = new Set(["getMessagesForRequest", "recoverOverflow"]);

function add(tally: Map<string, number> | undefined, key: string, count = 1): void {
  tally?.set(key, (tally.get(key) ?? 0) + count);
}

export interface SubjectObservers {
  readonly pending?: PendingCalls;
  readonly tally?: Map<string, number>;
}

/** Calls go to the manager itself, never to the proxy, so a manager with private fields works as it does unwrapped. */
function observeManager(manager: ContextManager, { pending, tally }: SubjectObservers): ContextManager {
  return new Proxy(manager, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args: unknown[]) => {
        const result = (value as (...args: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        result.then(
          (settled) => {
            add(tally, `calls:${key}`);
            if (VIEW_METHODS.has(key) && Array.isArray(settled)) add(tally, "views");
          },
          () => {
            add(tally, `calls:${key}`);
            add(tally, "rejected");
          },
        );
        return pending === undefined ? result : pending.track(`${key}()`, result);
      };
    },
  });
}

/** The subject, with every mount, manager call and cleanup watched by `observers`. */
export function observeSubject(subject: ResolvedSubject, observers: SubjectObservers): ResolvedSubject {
  const { pending, tally } = observers;
  const track = <T>(label: string, result: Promise<T>) => (pending === undefined ? result : pending.track(label, result));
  return {
    kind: subject.kind,
    async create(settings) {
      const instance: ManagerInstance = await track(subject.kind === "module" ? "mount()" : "the factory", subject.create(settings));
      return {
        ...instance,
        manager: observeManager(instance.manager, observers),
        dispose: () => {
          // Events are recorded per instance; counted once, when it is done with.
          if (instance.events !== undefined)
            add(tally, "compactions", instance.events.filter((recorded) => recorded.event === "context:pre_compact").length);
          return track(subject.kind === "module" ? "cleanup()" : "close()", instance.dispose());
        },
      };
    },
  };
}
