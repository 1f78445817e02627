// Reading untrusted provider input field by field: each read either gives a typed value or throws
// `AdapterInputError` naming the adapter, the entry and the field, so no `TypeError` can escape a conversion.
import { AdapterInputError } from "./adapter-input-error.js";

export type UnknownRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/** One object of the input (an entry, or a field inside one), read with its place in the input attached. */
export class InputRecord {
  constructor(
    private readonly input: InputList,
    readonly index: number | undefined,
    readonly path: string,
    readonly value: UnknownRecord,
  ) {}

  private at(key: string | number): string {
    return this.path === "" ? String(key) : `${this.path}.${key}`;
  }

  /** Throws the adapter's error for `key` (or this object when `key` is omitted). */
  fail(problem: string, key?: string | number): never {
    throw this.input.error(this.index, key === undefined ? this.path : this.at(key), problem);
  }

  has(key: string): boolean {
    return this.value[key] !== undefined;
  }

  optionalBoolean(key: string): boolean | undefined {
    const value = this.value[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "boolean") this.fail(`expected true or false, got ${describe(value)}`, key);
    return value;
  }

  /** The string at `key`, which must be one of `allowed`. */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.string(key);
    if (!(allowed as readonly string[]).includes(value))
      this.fail(`expected one of ${allowed.map((item) => JSON.stringify(item)).join(", ")}, got ${JSON.stringify(value)}`, key);
    return value as T;
  }

  string(key: string): string {
    const value = this.value[key];
    if (typeof value !== "string") this.fail(`expected a string, got ${describe(value)}`, key);
    return value;
  }

  /** A string that must not be empty (an id, a name). */
  nonEmptyString(key: string): string {
    const value = this.string(key);
    if (value === "") this.fail("expected a non-empty string", key);
    return value;
  }

  optionalString(key: string): string | undefined {
    return this.value[key] === undefined || this.value[key] === null ? undefined : this.string(key);
  }

  record(key: string): InputRecord {
    const value = this.value[key];
    if (!isRecord(value)) this.fail(`expected an object, got ${describe(value)}`, key);
    return new InputRecord(this.input, this.index, this.at(key), value);
  }

  optionalRecord(key: string): InputRecord | undefined {
    return this.value[key] === undefined || this.value[key] === null ? undefined : this.record(key);
  }

  /** A list of objects, each read as an `InputRecord`. */
  records(key: string): InputRecord[] {
    const value = this.value[key];
    if (!Array.isArray(value)) this.fail(`expected an array, got ${describe(value)}`, key);
    return value.map((item, position) => {
      if (!isRecord(item)) this.fail(`expected an object, got ${describe(item)}`, `${key}.${position}`);
      return new InputRecord(this.input, this.index, this.at(`${key}.${position}`), item);
    });
  }

  optionalRecords(key: string): InputRecord[] | undefined {
    return this.value[key] === undefined || this.value[key] === null ? undefined : this.records(key);
  }

  /** A string, or a list of objects (the two shapes most `content` fields take). */
  stringOrRecords(key: string): string | InputRecord[] {
    return typeof this.value[key] === "string" ? (this.value[key] as string) : this.records(key);
  }
}

/** A whole input list for one adapter function, and the advice its errors give. */
export class InputList {
  constructor(
    readonly adapter: string,
    private readonly fix: string,
  ) {}

  error(index: number | undefined, field: string, problem: string): AdapterInputError {
    return new AdapterInputError({ adapter: this.adapter, ...(index === undefined ? {} : { index }), field, problem, fix: this.fix });
  }

  /** The call's other arguments (`{ system }`, say), read like an entry but named without an index. */
  arguments(values: UnknownRecord): InputRecord {
    return new InputRecord(this, undefined, "", values);
  }

  /** The input's entries, each an object; anything else throws. */
  entries(input: unknown, field = ""): InputRecord[] {
    if (!Array.isArray(input)) throw this.error(undefined, field, `expected an array, got ${describe(input)}`);
    return input.map((entry, index) => this.entry(entry, index));
  }

  /** One entry, an object, at `index` of the input. */
  entry(value: unknown, index: number): InputRecord {
    if (!isRecord(value)) throw this.error(index, "", `expected an object, got ${describe(value)}`);
    return new InputRecord(this, index, "", value);
  }
}

/**
 * A reader for one adapter function's input: `fix` is what the caller should do about any problem it finds,
 * e.g. "Pass the request's messages as the Anthropic SDK types them".
 */
export function readAdapterInput(adapter: string, fix: string): InputList {
  return new InputList(adapter, fix);
}
