// Finds what JSON cannot carry, so a value that would come back different after a restart is refused up front.

export interface NonJsonValue {
  /** Dotted path to the value, e.g. `metadata.when`; empty for the value itself. */
  readonly path: string;
  readonly problem: string;
}

/**
 * The deepest nesting of arrays and objects a message may hold. Deeper values could not be
 * serialized, cloned or counted without overflowing the stack, so they are refused at the door.
 */
export const MAX_JSON_DEPTH = 100;

/** One object or array being visited: its entries, and how far through them the walk is. */
interface Frame {
  readonly value: object;
  readonly entries: readonly (readonly [string | number, unknown])[];
  next: number;
}

/**
 * Returns the first part of `value` that JSON would drop or change, or that is circular or nested
 * deeper than `MAX_JSON_DEPTH`, or `undefined` when it round-trips. A key whose value is `undefined`
 * is fine: JSON leaves it out, and an absent key reads the same. Iterative, so any input is safe.
 */
export function findNonJson(value: unknown): NonJsonValue | undefined {
  const rootProblem = problemOfLeaf(value);
  if (rootProblem !== undefined) return { path: "", problem: rootProblem };
  if (typeof value !== "object" || value === null) return undefined;
  const first = enter(value);
  if (typeof first === "string") return { path: "", problem: first };
  const stack: Frame[] = [first];
  const path: (string | number)[] = [];
  const ancestors = new Set<object>([value]);
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if (frame.next === frame.entries.length) {
      stack.pop();
      ancestors.delete(frame.value);
      path.pop();
      continue;
    }
    const [key, item] = frame.entries[frame.next]!;
    frame.next += 1;
    if (item === undefined && typeof key === "string") continue;
    const where = () => [...path, key].join(".");
    const problem = problemOfLeaf(item);
    if (problem !== undefined) return { path: where(), problem };
    if (typeof item !== "object" || item === null) continue;
    if (ancestors.has(item)) return { path: where(), problem: "a circular reference cannot be stored as JSON" };
    if (stack.length >= MAX_JSON_DEPTH) {
      return { path: where(), problem: `nested deeper than ${MAX_JSON_DEPTH} levels; flatten it or store it as a string` };
    }
    const frameOrProblem = enter(item);
    if (typeof frameOrProblem === "string") return { path: where(), problem: frameOrProblem };
    stack.push(frameOrProblem);
    ancestors.add(item);
    path.push(key);
  }
  return undefined;
}

/** The problem with a value that is not an object or array, or `undefined`. */
function problemOfLeaf(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "object":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
    case "undefined":
      return "undefined in a list becomes null in JSON";
    default:
      return `a ${typeof value} is not plain data and cannot be stored as JSON`;
  }
}

/** A frame over an array's items or a plain object's keys, or the reason the object is not plain data. */
function enter(value: object): Frame | string {
  if (Array.isArray(value)) return { value, entries: value.map((item, index) => [index, item] as const), next: 0 };
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = (prototype as { constructor?: { name?: string } }).constructor?.name ?? "class instance";
    return `a ${kind} cannot be stored as JSON; convert it to plain data (a string, say) first`;
  }
  const entries: (readonly [string, unknown])[] = [];
  for (const key in value) entries.push([key, (value as Record<string, unknown>)[key]] as const);
  return { value, entries, next: 0 };
}
