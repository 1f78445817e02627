// The coordinator: what a module is given to mount itself, emit events and register its cleanup.
import type { CleanupStack } from "./cleanup-stack.js";
import type { ContributorRegistry } from "./contributor-registry.js";
import type { HandlerErrorReporter } from "./handler-error.js";
import type { HookRegistry } from "./hook-registry.js";
import type { MountPoints } from "./mount-points.js";

export interface Coordinator extends MountPoints, ContributorRegistry, CleanupStack {
  readonly hooks: HookRegistry;
}

export interface CoordinatorOptions {
  /**
   * Called when a hook handler or a contributor throws or rejects; the failure is then skipped.
   * Defaults to `console.warn`.
   */
  onHandlerError?: HandlerErrorReporter;
}
