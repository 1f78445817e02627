// Every option of a zod config schema, found by walking its object shapes, and what the runtime can honour for each.
import { MAX_DURATION_MS } from "@ctxkit/core/kit";
import type { z } from "zod";

/** One option: its dotted path (`prompts.system` for a nested one) and the kind of value its schema takes. */
export interface SchemaOption {
  readonly path: readonly string[];
  readonly kind: "number" | "string" | "boolean" | "enum" | "other";
  readonly isNullable: boolean;
  readonly values?: readonly unknown[];
}

interface Definition {
  readonly type: string;
  readonly innerType?: z.core.$ZodType;
  readonly in?: z.core.$ZodType;
}

const definitionOf = (schema: z.core.$ZodType): Definition => (schema as unknown as { def: Definition }).def;
const WRAPPERS = new Set(["optional", "default", "prefault", "nullable", "readonly", "catch"]);

/** The schema under its optional, default and nullable wrappers, and whether one of them takes null. */
function unwrap(schema: z.core.$ZodType): { readonly inner: z.core.$ZodType; readonly isNullable: boolean } {
  let inner = schema;
  let isNullable = false;
  for (let definition = definitionOf(inner); ; definition = definitionOf(inner)) {
    if (definition.type === "nullable") isNullable = true;
    if (WRAPPERS.has(definition.type) && definition.innerType !== undefined) inner = definition.innerType;
    else if (definition.type === "pipe" && definition.in !== undefined) inner = definition.in;
    else return { inner, isNullable };
  }
}

/** Every option of `schema`, an object schema, nested objects walked into: a new option is found without a new case. */
export function schemaOptions(schema: z.core.$ZodType, path: readonly string[] = []): SchemaOption[] {
  const { inner } = unwrap(schema);
  const shape = (inner as unknown as { shape?: Record<string, z.core.$ZodType> }).shape;
  if (definitionOf(inner).type !== "object" || shape === undefined) return [];
  return Object.entries(shape).flatMap(([key, child]): SchemaOption[] => {
    const { inner: option, isNullable } = unwrap(child);
    const type = definitionOf(option).type;
    const at = [...path, key];
    if (type === "object") return schemaOptions(option, at);
    if (type === "number" || type === "string" || type === "boolean") return [{ path: at, kind: type, isNullable }];
    if (type === "enum") return [{ path: at, kind: "enum", isNullable, values: (option as unknown as { options: unknown[] }).options }];
    return [{ path: at, kind: "other", isNullable }];
  });
}

/** Options whose value is a share or a weight, not a count: a fraction is what they mean. */
const FRACTIONS = /^(compactThreshold|targetRatio|weights\..+)$/;
/** Options a timer waits for, or that an elapsed time is compared with. */
const DURATIONS = /Ms$/;
/** Options that name a file, a key or a table: the backends cannot keep an unbounded one. */
const NAMES = /^(sessionId|keyPrefix|table|schema)$/;

/** Whether the runtime can do what `value` asks of `option`; a schema may refuse more (a tighter bound), never accept less. */
export function canHonour(option: SchemaOption, value: unknown): boolean {
  if (value === null) return option.isNullable;
  const name = option.path.join(".");
  switch (option.kind) {
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return false;
      if (DURATIONS.test(name)) return Number.isInteger(value) && value >= 1 && value <= MAX_DURATION_MS;
      return FRACTIONS.test(name) || Number.isSafeInteger(value);
    }
    case "string":
      return typeof value === "string" && (!NAMES.test(name) || value.length <= 256);
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return option.values!.includes(value);
    default:
      // A function, a client, a strategy list or a tokenizer: never a bare number or a bare flag.
      return typeof value !== "number" && typeof value !== "boolean";
  }
}

/** The config that sets only `option` to `value`, nested as its path says. */
export function configWith(option: SchemaOption, value: unknown): Record<string, unknown> {
  return option.path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}
