// Two requests agree when they return equal views, or both fail with the same kind of error.
import { isDeepEqual } from "../checks/deep-equal.js";
import { isContextErrorLike } from "../checks/error-kinds.js";
import { preview } from "../checks/violation.js";
import type { RequestOutcome } from "../subject/manager-driver.js";

function errorKind(error: unknown): string {
  return isContextErrorLike(error) ? error.code : error instanceof Error ? error.name : String(error);
}

export function isSameOutcome(first: RequestOutcome, second: RequestOutcome): boolean {
  if (first.view !== undefined || second.view !== undefined) return isDeepEqual(first.view, second.view);
  return errorKind(first.error) === errorKind(second.error);
}

export function previewOutcome(outcome: RequestOutcome): string {
  return outcome.view === undefined ? `an error (${errorKind(outcome.error)})` : preview(outcome.view, 300);
}
