// Finds what JSON cannot carry, so a value that would come back different after a restart is refused up front.

export interface NonJsonValue {
  /** Dotted path to the value, e.g. `metadata.when`; empty for the value itself. */
  readonly path: string;
  readonly problem: string;
}

/**
 * Returns the first part of `value` that JSON would drop or change, or `undefined` when it round-trips.
 * A key whose value is `undefined` is fine: JSON leaves it out, and an absent key reads the same.
 */
export function findNonJson(value: unknown): NonJsonValue | undefined {
  const path: (string | number)[] = [];
  const problem = visit(value, path);
  return problem === undefined ? undefined : { path: path.join("."), problem };
}

/** Returns the problem and leaves `path` pointing at it; on success `path` is back as it was. */
function visit(value: unknown, path: (string | number)[]): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
    case "object":
      return value === null ? undefined : visitObject(value, path);
    case "undefined":
      return "undefined in a list becomes null in JSON";
    default:
      return `a ${typeof value} is not plain data and cannot be stored as JSON`;
  }
}

function visitObject(value: object, path: (string | number)[]): string | undefined {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      const problem = visit(value[index], path);
      if (problem !== undefined) return problem;
      path.pop();
    }
    return undefined;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = (prototype as { constructor?: { name?: string } }).constructor?.name ?? "class instance";
    return `a ${kind} cannot be stored as JSON; convert it to plain data (a string, say) first`;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    path.push(key);
    const problem = visit(item, path);
    if (problem !== undefined) return problem;
    path.pop();
  }
  return undefined;
}
