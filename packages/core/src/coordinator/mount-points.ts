// Mount points: one slot for the context manager, named slots for providers and tools.
import { ContextArgumentError, MountPointError } from "../errors.js";
import { isContextManager, type ContextManager, type Provider } from "../protocol.js";

export const MOUNT_POINTS = ["context", "providers", "tools"] as const;

export type MountPoint = (typeof MOUNT_POINTS)[number];

/** The points that hold several instances, each under its own name. */
export type NamedMountPoint = Exclude<MountPoint, "context">;

/** What each point holds. Tools have no ctxkit protocol of their own, so they stay `unknown`. */
export interface MountedInstances {
  context: ContextManager;
  providers: Provider;
  tools: unknown;
}

export interface MountPoints {
  /** Mounts the context manager, replacing any manager already mounted. */
  mount(point: "context", instance: ContextManager, options?: { name?: string }): Promise<void>;
  /** Mounts under `name`, replacing any instance already mounted under that name. */
  mount<Point extends NamedMountPoint>(point: Point, instance: MountedInstances[Point], options: { name: string }): Promise<void>;
  /**
   * The mounted context manager. Name the module's own manager type to use its extra methods without a
   * cast, as with `querySelector<T>`: `get<PersistentContextManager>("context")?.close()`.
   */
  get<Manager extends ContextManager = ContextManager>(point: "context"): Manager | undefined;
  /** A snapshot of every instance at the point, by name. */
  get<Point extends NamedMountPoint>(point: Point): ReadonlyMap<string, MountedInstances[Point]>;
  get<Point extends NamedMountPoint>(point: Point, name: string): MountedInstances[Point] | undefined;
  /** Empties the context slot; for a named point removes `name`, or every instance when no name is given. */
  unmount(point: MountPoint, name?: string): Promise<void>;
}

function assertKnown(point: string): asserts point is MountPoint {
  if (!(MOUNT_POINTS as readonly string[]).includes(point)) {
    throw new MountPointError(point, MOUNT_POINTS);
  }
}

export function createMountPoints(): MountPoints {
  let context: ContextManager | undefined;
  const named: { [Point in NamedMountPoint]: Map<string, MountedInstances[Point]> } = {
    providers: new Map(),
    tools: new Map(),
  };

  async function mount(point: MountPoint, instance: unknown, options?: { name?: string }): Promise<void> {
    assertKnown(point);
    if (instance === undefined || instance === null) {
      throw new ContextArgumentError(`mount("${point}")`, [
        { path: "instance", message: `cannot be ${String(instance)}; use unmount("${point}") to empty the point` },
      ]);
    }
    if (point === "context") {
      // Modules written in plain JavaScript get no compiler check, so the protocol is checked here.
      if (!isContextManager(instance)) {
        throw new ContextArgumentError('mount("context")', [
          {
            path: "instance",
            message: "is not a ContextManager (it needs addMessage, getMessagesForRequest, getMessages, setMessages and clear methods)",
          },
        ]);
      }
      context = instance;
      return;
    }
    const name = options?.name;
    if (typeof name !== "string" || name === "") {
      throw new ContextArgumentError(`mount("${point}")`, [
        { path: "options.name", message: `needs a non-empty name: mount("${point}", instance, { name: "…" })` },
      ]);
    }
    (named[point] as Map<string, unknown>).set(name, instance);
  }

  function get<Manager extends ContextManager = ContextManager>(point: "context"): Manager | undefined;
  function get<Point extends NamedMountPoint>(point: Point): ReadonlyMap<string, MountedInstances[Point]>;
  function get<Point extends NamedMountPoint>(point: Point, name: string): MountedInstances[Point] | undefined;
  function get(point: MountPoint, name?: string): unknown {
    assertKnown(point);
    if (point === "context") return context;
    // A copy, so a caller can neither mutate the point nor see it change under a loop.
    return name === undefined ? new Map<string, unknown>(named[point]) : named[point].get(name);
  }

  async function unmount(point: MountPoint, name?: string): Promise<void> {
    assertKnown(point);
    if (point === "context") {
      context = undefined;
    } else if (name === undefined) {
      named[point].clear();
    } else {
      named[point].delete(name);
    }
  }

  return { mount, get, unmount };
}
