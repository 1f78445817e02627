// Tool-call arguments as the canonical transcripts write them: Python's json.dumps(value, ensure_ascii=False).

/**
 * `value` as JSON with `", "` and `": "` separators and non-ASCII characters kept, key order preserved: the text
 * the canonical transcripts hold for a tool call whose log recorded its arguments as an object. A float written
 * with a fractional zero (`1.0`) reads back as `1`, so it is written `1`, as the parsed value holds it.
 */
export function dumpsLikePython(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.map(dumpsLikePython).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}: ${dumpsLikePython(child)}`).join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
