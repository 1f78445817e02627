// The inspect page: one HTML template with its styles, the data as JSON and the one script inlined, so the
// file alone renders (nothing is fetched: the page's Content-Security-Policy forbids it).
import type { InspectData } from "./inspect-data.js";
import { inspectPageScript } from "./inspect-page-script.js";

const escapeHtml = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * JSON inside a script element: escaping every "<" keeps "</script>" and "<!--" in a message from ending or
 * changing the element, and U+2028/U+2029 are escaped so the text stays valid wherever it is pasted.
 */
export const scriptJson = (json: string): string =>
  json.replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");

const STYLE = `
:root { color: #1a1a1a; background: #fff; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 1.5rem; max-width: 90rem; }
h1 { font-size: 1.4rem; margin: 0 0 0.3rem; } h2 { font-size: 1.15rem; margin: 1.6rem 0 0.4rem; } h4 { margin: 0.8rem 0 0.2rem; }
.note { color: #3d3d3d; max-width: 60rem; }
:focus-visible { outline: 3px solid #1a4fd6; outline-offset: 2px; }
button, select, input { font: inherit; color: #1a1a1a; background: #fff; border: 1px solid #595959; border-radius: 4px; padding: 0.2rem 0.5rem; }
button:disabled { color: #595959; }
a { color: #1a4fd6; }
.chart-box { position: relative; border: 1px solid #595959; height: 300px; }
#timeline-chart { width: 100%; height: 100%; display: block; cursor: crosshair; }
.axis { display: flex; justify-content: space-between; color: #3d3d3d; font-size: 0.85rem; }
.legend { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; list-style: none; padding: 0; margin: 0.5rem 0; }
.swatch { display: inline-block; width: 0.9rem; height: 0.9rem; margin-right: 0.3rem; vertical-align: -0.1rem; border: 1px solid #1a1a1a; }
.line-budget { display: inline-block; width: 1.4rem; border-top: 3px dashed #b00020; margin-right: 0.3rem; vertical-align: 0.25rem; }
.line-prefix { display: inline-block; width: 1.4rem; border-top: 2px solid #000; margin-right: 0.3rem; vertical-align: 0.25rem; }
.line-compaction { display: inline-block; height: 0.9rem; border-left: 2px dashed #000; margin: 0 0.5rem 0 0.3rem; vertical-align: -0.1rem; }
.controls { display: flex; flex-wrap: wrap; gap: 0.6rem 1.2rem; align-items: center; margin: 0.6rem 0; }
#request { width: min(40rem, 100%); }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.2rem 0.5rem; border-bottom: 1px solid #c4c4c4; text-align: left; vertical-align: top; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
#messages td.text { max-width: 48rem; white-space: pre-wrap; overflow-wrap: anywhere; }
details { border: 1px solid #c4c4c4; border-radius: 4px; margin: 0.3rem 0; padding: 0.2rem 0.6rem; }
summary { cursor: pointer; padding: 0.2rem 0; }
.bar-row { display: flex; gap: 0.6rem; align-items: center; margin: 0.3rem 0; }
.bar-label { width: 14rem; }
.bar { position: relative; flex: 1; height: 1.2rem; border: 1px solid #595959; display: flex; }
.bar-part { display: block; height: 100%; }
.bar-budget { position: absolute; top: -0.2rem; bottom: -0.2rem; border-left: 3px dashed #b00020; }
`;

/** The page for `data`: a self-contained HTML document. */
export function renderInspectPage(data: InspectData): string {
  const forms = ["verbatim", "cleared", "trimmed", "summarized", "dropped", "unknown"];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<link rel="icon" href="data:,">
<title>${escapeHtml(data.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(data.title)}</h1>
<p id="summary"></p>
<nav aria-label="Sections"><a href="#timeline-heading">Timeline</a> · <a href="#compactions-heading">Compactions</a> · <a href="#next-heading">Next request</a> · <a href="#search" id="to-search">Search messages</a></nav>
</header>
<main>
<section aria-labelledby="timeline-heading">
<h2 id="timeline-heading">Timeline</h2>
<p class="note" id="timeline-note">Each bar is one model call's view, stacked by category; the dashed red line is the budget.</p>
<ul class="legend" id="legend" aria-label="Legend"></ul>
<ul class="legend" aria-label="Lines">
<li><span class="line-budget"></span><span id="budget-label"></span></li>
<li><span class="line-prefix"></span>where the cached prefix ended (the part shared with the previous view)</li>
<li><span class="line-compaction"></span>a request that compacted</li>
</ul>
<div class="axis"><span>top of the chart: <span id="chart-top"></span></span><span>first request → last request</span></div>
<div class="chart-box"><svg id="timeline-chart" role="img" viewBox="0 0 1000 300" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg"></svg></div>
<div class="controls">
<label for="request">Request</label>
<input type="range" id="request" min="0" max="0" value="0" step="1">
</div>
<div id="request-details" aria-live="polite"></div>
</section>
<section aria-labelledby="compactions-heading">
<h2 id="compactions-heading">Compactions (<span id="compaction-count">0</span>)</h2>
<p class="note" id="compactions-note"></p>
<div id="compactions"></div>
</section>
<section aria-labelledby="next-heading">
<h2 id="next-heading">The next request (explainView)</h2>
<p id="next"></p>
</section>
<section aria-labelledby="messages-heading">
<h2 id="messages-heading">Messages</h2>
<p class="note">Each history message's form in the next view and why. The search looks through each message's first ${data.textLimit.toLocaleString("en")} characters, its role and its reason.</p>
<div class="controls">
<label for="search">Search messages</label>
<input type="search" id="search" autocomplete="off">
<label for="form-filter">Form</label>
<select id="form-filter"><option value="">any</option>${forms.map((form) => `<option value="${form}">${form}</option>`).join("")}</select>
<span id="match-count" aria-live="polite"></span>
</div>
<table id="messages">
<thead><tr><th scope="col">#</th><th scope="col">role</th><th scope="col">form</th><th scope="col">reason</th><th scope="col">tokens in view</th><th scope="col">text</th></tr></thead>
<tbody id="message-rows"></tbody>
</table>
<div class="controls">
<button type="button" id="previous-page">Previous page</button>
<span id="page-status"></span>
<button type="button" id="next-page">Next page</button>
</div>
</section>
</main>
<script type="application/json" id="inspect-data">${scriptJson(JSON.stringify(data))}</script>
<script>(${String(inspectPageScript)})();</script>
</body>
</html>
`;
}
