// Recognizes ctxkit errors by their stable `code`, because a module under test may bundle its own copy
// of @ctxkit/core, whose classes are not the kit's classes.
import { ContextError } from "@ctxkit/core";

export interface BudgetErrorLike {
  readonly code: "CONTEXT_BUDGET";
  readonly budget: number;
  readonly required: number;
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

export function isContextErrorLike(error: unknown): error is Error & { code: string } {
  if (error instanceof ContextError) return true;
  return error instanceof Error && typeof codeOf(error) === "string" && /^(CONTEXT|MODULE|MOUNT)_/.test(codeOf(error) as string);
}

export function isValidationErrorLike(error: unknown): boolean {
  return isContextErrorLike(error) && error.code === "CONTEXT_VALIDATION";
}

export function isBudgetErrorLike(error: unknown): error is Error & BudgetErrorLike {
  if (!isContextErrorLike(error) || error.code !== "CONTEXT_BUDGET") return false;
  const { budget, required } = error as unknown as Record<string, unknown>;
  return typeof budget === "number" && typeof required === "number";
}
