// The skip summary that ends `pnpm test`: every skipped test's reason, grouped, from what scripts/skip-reporter.mjs
// recorded. A test skipped at run time gives its reason as the skip's note; by convention one skipped before it runs
// says why in its name or its suite's: "… (skipped: <reason>)", "… (skipped when <condition>)" or "… not run
// (<reason>)". One that gives none is listed by name under "no reason given", so it gets one.
import { relative, sep } from "node:path";

export const NO_REASON = "no reason given";

/** The text inside the parenthesis opened at `open`, or to the end of `text` when it never closes. */
function insideParenthesis(text, open) {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === "(") depth += 1;
    if (text[index] === ")") {
      depth -= 1;
      if (depth === 0) return text.slice(open + 1, index);
    }
  }
  return text.slice(open + 1);
}

/** The reason one title gives for a skip, or undefined. */
export function reasonInTitle(title) {
  const notRun = title.lastIndexOf("not run (");
  if (notRun !== -1) return insideParenthesis(title, notRun + "not run ".length).trim() || undefined;
  const marker = title.search(/skipped(:| when )/);
  if (marker === -1) return undefined;
  const opened = title.lastIndexOf("(", marker);
  // "(skipped: x)" ends at its parenthesis; "… — skipped: x" runs to the end of the title.
  const text = opened !== -1 && title.slice(opened + 1, marker).trim() === "" ? insideParenthesis(title, opened) : title.slice(marker);
  const reason = text
    .trim()
    .replace(/^skipped:\s*/, "")
    .replace(/^skipped when /, "when ")
    .trim();
  return reason || undefined;
}

/** The reason a test was skipped: the innermost title (the test's own, then its suites') that gives one. */
export function skipReason(titles) {
  for (const title of [...titles].reverse()) {
    const reason = reasonInTitle(title);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * The skipped tests (`[{ file, titles, todo, note }]`, as the reporter writes them) grouped by reason, largest group
 * first: `[{ reason, count, places, tests }]`, `places` being the folders the skipped files are in (`packages/x`) and
 * `tests` the names of the tests, kept for the groups with no reason and the todos.
 */
export function groupSkips(skipped, root) {
  const groups = new Map();
  for (const { file, titles, todo, note } of skipped) {
    const shown = root === undefined ? file : relative(root, file).split(sep).join("/");
    const place = shown.split("/").slice(0, 2).join("/");
    const reason = todo ? "todo" : note?.trim() || (skipReason(titles) ?? NO_REASON);
    const group = groups.get(reason) ?? { reason, count: 0, places: [], tests: [] };
    group.count += 1;
    if (!group.places.includes(place)) group.places.push(place);
    if (reason === NO_REASON || reason === "todo") group.tests.push(`${shown} > ${titles.join(" > ")}`);
    groups.set(reason, group);
  }
  return [...groups.values()].sort((first, second) => second.count - first.count || first.reason.localeCompare(second.reason));
}

/** The summary's lines: a heading with the total, then one line per reason with its count and where. */
export function formatSkipSummary(groups) {
  const total = groups.reduce((sum, group) => sum + group.count, 0);
  if (total === 0) return ["Skipped: none."];
  const width = String(Math.max(...groups.map((group) => group.count))).length;
  const lines = [`Skipped: ${total} test${total === 1 ? "" : "s"}, for ${groups.length} reason${groups.length === 1 ? "" : "s"}:`];
  for (const group of groups) {
    lines.push(`  ${String(group.count).padStart(width)}  ${group.reason}  (${group.places.join(", ")})`);
    for (const test of group.tests) lines.push(`  ${" ".repeat(width)}    ${test}`);
  }
  return lines;
}
