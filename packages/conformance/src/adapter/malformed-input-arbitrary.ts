// Input an adapter's `from…` function must refuse with a typed error or convert into valid messages.
import fc from "fast-check";

type Path = readonly (string | number)[];

/** Values that break naive readers: missing, null, wrong types, empty containers. */
const junkValueArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, "", 0, -1, true, [], {}, [null], { type: 7 }, "tool_use", "assistant"),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Entries that look a little like messages: the keys adapters read, with junk values. */
const messageLikeArbitrary: fc.Arbitrary<unknown> = fc.dictionary(
  fc.constantFrom("role", "content", "type", "id", "tool_calls", "tool_call_id", "name", "text", "input", "call_id", "output"),
  junkValueArbitrary,
  { maxKeys: 4 },
);

/** Junk with no relation to any payload: not lists, lists of non-objects, lists of message-like objects. */
export function junkInputArbitrary(): fc.Arbitrary<unknown> {
  return fc.oneof(
    junkValueArbitrary,
    fc.array(junkValueArbitrary, { minLength: 1, maxLength: 3 }),
    fc.array(messageLikeArbitrary, { minLength: 1, maxLength: 3 }),
  );
}

function pathsOf(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
  if (typeof value === "object" && value !== null)
    return [path, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return [path];
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (replacement === undefined && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (replacement === undefined && rest.length === 0) delete copy[head as string];
  else copy[head as string] = replaceAt(copy[head as string], rest, replacement);
  return copy;
}

/**
 * A well-formed payload with one place corrupted: a field removed, nulled or given a value of another type,
 * an entry replaced by junk. `undefined` as a replacement removes the key or entry.
 */
export function corruptedInputArbitrary<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return valid.chain((payload) => {
    const plain = JSON.parse(JSON.stringify(payload ?? null)) as unknown;
    const paths = pathsOf(plain).filter((path) => path.length > 0);
    if (paths.length === 0) return fc.constant(plain);
    return fc.tuple(fc.constantFrom(...paths), junkValueArbitrary).map(([path, junk]) => replaceAt(plain, path, junk));
  });
}

/** Junk and corrupted payloads, half and half. */
export function malformedInputArbitrary<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(junkInputArbitrary(), corruptedInputArbitrary(valid));
}
