// A history with each generated id (`call_…`, `toolu_…`, `fc_…`) replaced by its order of first appearance, so two
// runs of the same scripted loop compare equal although the imitations mint fresh ids on every reply.

const GENERATED_ID = /\b[A-Za-z]+_[A-Za-z0-9]{20,}\b/g;

export function withOrdinalIds<T>(value: T): T {
  const seen = new Map<string, string>();
  const text = JSON.stringify(value).replace(GENERATED_ID, (id) => {
    let ordinal = seen.get(id);
    if (ordinal === undefined) {
      ordinal = `id-${seen.size}`;
      seen.set(id, ordinal);
    }
    return ordinal;
  });
  return JSON.parse(text) as T;
}
