// Turns zod issues into ctxkit's flat issue list: one entry per bad key or value, each saying what to change.
import type { z } from "zod";
import type { ErrorIssue } from "../errors.js";

type ZodIssue = z.core.$ZodIssue;

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/** True when a union branch failed only because the value had the wrong type for it. */
function isWrongBranch(issues: readonly ZodIssue[]): boolean {
  return issues.length > 0 && issues.every((issue) => issue.code === "invalid_type" && issue.path.length === 0);
}

function expectedTypes(branches: readonly (readonly ZodIssue[])[]): string[] {
  const types = branches.flatMap((issues) => issues.map((issue) => (issue.code === "invalid_type" ? issue.expected : "")));
  return [...new Set(types.filter((type) => type !== ""))];
}

/**
 * A union's own message is only "Invalid input". When exactly one branch matched the value's type,
 * its issues are the ones that tell the user what to fix, so they replace the union's.
 */
function expandUnion(issue: ZodIssue & { code: "invalid_union" }, prefix: readonly PropertyKey[]): ErrorIssue[] {
  const candidates = issue.errors.filter((branch) => !isWrongBranch(branch));
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) {
    return toConfigIssues(only, [...prefix, ...issue.path]);
  }
  const path = joinPath([...prefix, ...issue.path]);
  if (candidates.length === 0) {
    return [{ path, message: `Invalid input: expected ${expectedTypes(issue.errors).join(" or ")}` }];
  }
  return [{ path, message: "Invalid input: matches none of the allowed shapes" }];
}

export function toConfigIssues(issues: readonly ZodIssue[], prefix: readonly PropertyKey[] = []): ErrorIssue[] {
  return issues.flatMap((issue): ErrorIssue[] => {
    if (issue.code === "unrecognized_keys") {
      // zod reports every unknown key of one object together; users fix them one by one.
      return issue.keys.map((key) => ({ path: joinPath([...prefix, ...issue.path, key]), message: "unknown key" }));
    }
    if (issue.code === "invalid_union") {
      return expandUnion(issue, prefix);
    }
    return [{ path: joinPath([...prefix, ...issue.path]), message: issue.message }];
  });
}
