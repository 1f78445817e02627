// Turns zod issues into ctxkit's flat issue list: one entry per bad key or value, each saying what to change.
import type * as z from "zod/mini";
import type { ErrorIssue } from "../errors.js";
import { closestName } from "./closest-name.js";
import { knownKeysAt } from "./known-keys.js";

type ZodIssue = z.core.$ZodIssue;

/** What was parsed, for suggestions: the schema knows the allowed keys, the input the value given. */
export interface IssueContext {
  readonly schema?: z.core.$ZodType;
  readonly input?: unknown;
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function didYouMean(name: unknown, known: readonly unknown[]): string {
  if (typeof name !== "string") return "";
  const suggestion = closestName(
    name,
    known.filter((value): value is string => typeof value === "string"),
  );
  return suggestion === undefined ? "" : ` (did you mean ${JSON.stringify(suggestion)}?)`;
}

/** True when a union branch failed only because the value had the wrong type for it. */
function isWrongBranch(issues: readonly ZodIssue[], value: unknown): boolean {
  return (
    issues.length > 0 &&
    issues.every(
      (issue) =>
        issue.path.length === 0 &&
        (issue.code === "invalid_type" ||
          (issue.code === "invalid_value" && issue.values.every((allowed) => typeof allowed !== typeof value))),
    )
  );
}

function expectedTypes(branches: readonly (readonly ZodIssue[])[]): string[] {
  const types = branches.flatMap((issues) => issues.map((issue) => (issue.code === "invalid_type" ? issue.expected : "")));
  return [...new Set(types.filter((type) => type !== ""))];
}

/** One branch of a union in words: what a value must be to take it. */
function describeBranch(issues: readonly ZodIssue[]): string | undefined {
  const [first] = issues;
  if (first === undefined || first.path.length > 0) return undefined;
  if (first.code === "invalid_type") return `a${/^[aeiou]/.test(first.expected) ? "n" : ""} ${first.expected}`;
  return undefined;
}

/**
 * A union's own message is only "Invalid input". When exactly one branch matched the value's type,
 * its issues are the ones that tell the user what to fix, so they replace the union's. Otherwise the
 * message lists what each branch allows, led by a schema's own summary (a custom branch's message).
 */
function expandUnion(issue: ZodIssue & { code: "invalid_union" }, prefix: readonly PropertyKey[], context: IssueContext): ErrorIssue[] {
  const fullPath = [...prefix, ...issue.path];
  const value = valueAt(context.input, fullPath);
  const candidates = issue.errors.filter((branch) => !isWrongBranch(branch, value));
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) {
    return toConfigIssues(only, fullPath, context);
  }
  const path = joinPath(fullPath);
  if (candidates.length === 0) {
    return [{ path, message: `Invalid input: expected ${expectedTypes(issue.errors).join(" or ")}` }];
  }
  const summaries = issue.errors.flatMap((branch) =>
    branch.filter((entry) => entry.code === "custom" && entry.path.length === 0).map((entry) => entry.message),
  );
  const allowedValues = issue.errors.flatMap((branch) =>
    branch.flatMap((entry) => (entry.code === "invalid_value" && entry.path.length === 0 ? entry.values : [])),
  );
  // Literal branches read as one list of values; the other branches each name their type.
  const valueShape = allowedValues.length === 0 ? [] : [`one of ${allowedValues.map((allowed) => JSON.stringify(allowed)).join(", ")}`];
  const typeShapes = issue.errors.map(describeBranch).filter((shape) => shape !== undefined);
  const shapes = summaries.length > 0 ? summaries : [...valueShape, ...typeShapes];
  const allowed = shapes.length === 0 ? "" : `: ${shapes.join("; or ")}`;
  return [{ path, message: `Invalid input: matches none of the allowed shapes${allowed}${didYouMean(value, allowedValues)}` }];
}

export function toConfigIssues(issues: readonly ZodIssue[], prefix: readonly PropertyKey[] = [], context: IssueContext = {}): ErrorIssue[] {
  return issues.flatMap((issue): ErrorIssue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      const known = context.schema === undefined ? [] : knownKeysAt(context.schema, path);
      // zod reports every unknown key of one object together; users fix them one by one.
      return issue.keys.map((key) => ({ path: joinPath([...path, key]), message: `unknown key${didYouMean(key, known)}` }));
    }
    if (issue.code === "invalid_union") {
      return expandUnion(issue, prefix, context);
    }
    // zod says "received undefined" of a missing key; a schema's own message (not "Invalid input…") stays.
    if (
      issue.code === "invalid_type" &&
      issue.message.startsWith("Invalid input") &&
      context.input !== undefined &&
      valueAt(context.input, path) === undefined
    ) {
      return [{ path: joinPath(path), message: `required: expected ${issue.expected}` }];
    }
    if (issue.code === "invalid_value") {
      return [{ path: joinPath(path), message: `${issue.message}${didYouMean(valueAt(context.input, path), issue.values)}` }];
    }
    return [{ path: joinPath(path), message: issue.message }];
  });
}
