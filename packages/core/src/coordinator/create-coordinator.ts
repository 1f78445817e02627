// createCoordinator: assembles mount points, hooks, contributors and cleanups into one Coordinator.
import { createCleanupStack } from "./cleanup-stack.js";
import { createContributorRegistry } from "./contributor-registry.js";
import type { Coordinator, CoordinatorOptions } from "./coordinator.js";
import { createSafeReporter } from "./handler-error.js";
import { createHookRegistry } from "./hook-registry.js";
import { createMountPoints } from "./mount-points.js";

export { MOUNT_POINTS, type MountPoint, type NamedMountPoint, type MountedInstances } from "./mount-points.js";
export type { Coordinator, CoordinatorOptions } from "./coordinator.js";
export type { HookRegistry, HookHandler, HookOptions } from "./hook-registry.js";
export type { Contributor, ContributionChannels, ContributionOf } from "./contributor-registry.js";
export type { Cleanup } from "./cleanup-stack.js";
export type { HandlerErrorReporter, HandlerErrorSource } from "./handler-error.js";

export function createCoordinator(options: CoordinatorOptions = {}): Coordinator {
  const reportError = createSafeReporter(options.onHandlerError);
  return {
    hooks: createHookRegistry(reportError),
    ...createMountPoints(),
    ...createContributorRegistry(reportError),
    ...createCleanupStack(),
  };
}
