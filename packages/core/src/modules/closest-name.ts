// Did-you-mean: the known name a mistyped one most likely meant, or nothing when none is close.

function editDistance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let row = 1; row <= from.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= to.length; column += 1) {
      const substitution = (previous[column - 1] ?? 0) + (from[row - 1] === to[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[to.length] ?? 0;
}

/**
 * The closest of `known` to `name`, case aside: a few edits away (a third of the name, at least two),
 * or a name that starts with it (`trunc` → `truncate`).
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    const isClose =
      distance <= Math.max(2, Math.floor(candidate.length / 3)) || (lower.length >= 3 && candidate.toLowerCase().startsWith(lower));
    if (isClose && candidate !== name && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
