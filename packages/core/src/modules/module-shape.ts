// Checks that an imported namespace has the module shape, collecting every problem instead of the first.
import type { CtxkitModule } from "./module.js";

export interface ShapeProblem {
  /** The export at fault, e.g. `mount` or `meta.type`. */
  readonly name: string;
  /** What it must be instead. */
  readonly expected: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A module written as `export default { meta, mount, … }` (or CommonJS) is accepted too. */
export function pickModuleExports(namespace: Record<string, unknown>): Record<string, unknown> {
  const fallback = namespace["default"];
  return !("meta" in namespace) && isRecord(fallback) ? fallback : namespace;
}

export function findShapeProblems(exports: Record<string, unknown>, expectedType?: CtxkitModule["meta"]["type"]): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const meta = exports["meta"];
  if (!isRecord(meta)) {
    problems.push({ name: "meta", expected: 'an object { type: "context" | "strategy", name }' });
  } else {
    const type = meta["type"];
    if (type !== "context" && type !== "strategy") {
      problems.push({ name: "meta.type", expected: `"context" or "strategy" (got ${JSON.stringify(type) ?? "undefined"})` });
    } else if (expectedType !== undefined && type !== expectedType) {
      problems.push({ name: "meta.type", expected: `"${expectedType}" here (got "${type}")` });
    }
    if (typeof meta["name"] !== "string" || meta["name"].trim() === "") {
      problems.push({ name: "meta.name", expected: "a non-empty string" });
    }
  }
  if (typeof exports["mount"] !== "function") {
    problems.push({ name: "mount", expected: "a function (coordinator, config) returning a cleanup or nothing" });
  }
  const configSchema = exports["configSchema"];
  if (!isRecord(configSchema) || typeof configSchema["safeParse"] !== "function") {
    problems.push({ name: "configSchema", expected: "a zod schema (an object with safeParse)" });
  }
  const isStrategy = isRecord(meta) && meta["type"] === "strategy";
  if (isStrategy && typeof exports["createStrategy"] !== "function") {
    problems.push({ name: "createStrategy", expected: "a function (config, coordinator) returning a Strategy" });
  }
  return problems;
}
