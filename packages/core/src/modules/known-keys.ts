// The keys a zod schema accepts for the object at a path: what an unknown key is compared with.
import type { z } from "zod";

interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
}

function definition(schema: z.ZodType): SchemaDefinition {
  return (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;
}

/** Object schemas reachable at `path`, through wrappers (optional, default, …), arrays, unions and intersections. */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[], depth = 0): SchemaDefinition[] {
  if (depth > 32) return [];
  const def = definition(schema);
  const next = (inner: z.ZodType | undefined, rest = path) => (inner === undefined ? [] : objectsAt(inner, rest, depth + 1));
  switch (def.type) {
    case "object": {
      if (path.length === 0) return [def];
      const child = def.shape?.[String(path[0])];
      return child === undefined ? [] : next(child, path.slice(1));
    }
    case "array":
      return path.length === 0 ? [] : next(def.element, path.slice(1));
    case "union":
      return (def.options ?? []).flatMap((option) => next(option));
    case "intersection":
      return [...next(def.left), ...next(def.right)];
    case "pipe":
      return next(def.in);
    default:
      return next(def.innerType);
  }
}

export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((object) => Object.keys(object.shape ?? {})))];
}
