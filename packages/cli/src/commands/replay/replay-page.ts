// `--html FILE`: one self-contained page (styles, chart and data inlined, nothing fetched) to attach to a bug report.
import { type ChartPoint, renderCostChart } from "../../replay/cost-chart.js";
import type { ReplayFigures } from "./replay-results.js";
import { REPLAY_COLUMNS, type ReplayReport, replayCells, replayReportJson } from "./replay-report.js";

const escapeHtml = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** JSON inside a script element: "</script>" and "<!--" in a session's text must not end it. */
const scriptJson = (json: string): string => json.replaceAll("<", "\\u003c");

/** Each configuration at each budget: its totals over the sessions, or its one row when there is one session. */
function chartPoints(report: ReplayReport): ChartPoint[] {
  const figures = report.sessions.length > 1 ? report.totals : report.rows;
  const points = figures.map((entry) => ({
    label: `${entry.configuration} · ${entry.budget.toLocaleString("en")}`,
    cost: entry.cost,
    retention: entry.retention,
    series: `${entry.budget.toLocaleString("en")} tokens`,
  }));
  // The reference every cost is divided by.
  return [{ label: "full history", cost: 1, retention: 1, series: "full history", isHighlighted: true }, ...points];
}

function row(entry: ReplayFigures): string {
  const [configuration = "", ...cells] = replayCells(entry);
  return `<tr><th scope="row">${escapeHtml(configuration)}</th>${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`;
}

export function renderReplayPage(report: ReplayReport): string {
  const price = report.price;
  const axis = `billed input ÷ full history's, ${price.name} prices (cache read ${price.cacheRead}x, the rest ${price.uncached}x)`;
  const chart = renderCostChart(chartPoints(report), "Cost against retention", axis)
    .replace("<svg ", '<svg role="img" aria-labelledby="chart-title" ')
    .replace(/width="(\d+)" height="(\d+)"/, 'width="100%" preserveAspectRatio="xMinYMin meet"');
  const rows = report.configurations.flatMap((configuration) =>
    report.budgets.flatMap((budget) => [
      ...report.rows.filter((entry) => entry.configuration === configuration.label && entry.budget === budget),
      ...(report.sessions.length > 1
        ? report.totals.filter((entry) => entry.configuration === configuration.label && entry.budget === budget)
        : []),
    ]),
  );
  const sessions = report.sessions.map((session) => {
    const skipped = Object.entries(session.skipped).map(([kind, count]) => `${count} ${kind}`);
    return `<li><code>${escapeHtml(session.file)}</code> (${escapeHtml(session.format)}): ${session.messages} messages${skipped.length === 0 ? "" : `; left out: ${escapeHtml(skipped.join(", "))}`}</li>`;
  });
  const failures = report.failures.map((failure) => `<li>${escapeHtml(failure.message)}</li>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ctxkit replay: cost against retention</title>
<style>
body { font-family: system-ui, sans-serif; color: #111; background: #fff; margin: 2rem; max-width: 80rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #ccc; text-align: right; }
th[scope="row"], td:nth-child(3), thead th:nth-child(-n+3) { text-align: left; }
figure { margin: 1rem 0; max-width: 70rem; }
</style>
</head>
<body>
<h1>ctxkit replay: cost against retention</h1>
<figure>
<figcaption id="chart-title">Each configuration's billed input (relative to sending the full history) against the share of identifiers each call used that its view still held.</figcaption>
${chart}
</figure>
<h2>Figures</h2>
<table>
<caption>Per configuration, budget and session; cost under ${escapeHtml(price.name)} prices.</caption>
<thead><tr>${REPLAY_COLUMNS.map((column) => `<th scope="col">${column}</th>`).join("")}</tr></thead>
<tbody>
${rows.map(row).join("\n")}
</tbody>
</table>
<h2>Sessions</h2>
<ul>
${sessions.join("\n")}
</ul>
${failures.length === 0 ? "" : `<h2>Failures</h2>\n<ul>\n${failures.join("\n")}\n</ul>\n`}<script type="application/json" id="replay-data">
${scriptJson(replayReportJson(report).trimEnd())}
</script>
</body>
</html>
`;
}
