// The keys a zod schema accepts for the object at a path: what an unknown key is compared with.
import type * as z from "zod/mini";

interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Record<string, z.core.$ZodType>;
  readonly innerType?: z.core.$ZodType;
  readonly in?: z.core.$ZodType;
  readonly element?: z.core.$ZodType;
  readonly options?: readonly z.core.$ZodType[];
  readonly left?: z.core.$ZodType;
  readonly right?: z.core.$ZodType;
}

function definition(schema: z.core.$ZodType): SchemaDefinition {
  return (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;
}

/** Object schemas reachable at `path`, through wrappers (optional, default, …), arrays, unions and intersections. */
function objectsAt(schema: z.core.$ZodType, path: readonly PropertyKey[], depth = 0): SchemaDefinition[] {
  if (depth > 32) return [];
  const def = definition(schema);
  const next = (inner: z.core.$ZodType | undefined, rest = path) => (inner === undefined ? [] : objectsAt(inner, rest, depth + 1));
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

export function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((object) => Object.keys(object.shape ?? {})))];
}
