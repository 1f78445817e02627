/// <reference lib="dom" />
// The inspect page's one script. It runs in the browser, inlined by its source text (`String(inspectPageScript)`),
// so it is one self-contained function: it imports nothing at run time and reads its data from the page.
import type { InspectCompaction, InspectData, InspectMessage, InspectRequest } from "./inspect-data.js";

export function inspectPageScript(): void {
  const data = JSON.parse(document.getElementById("inspect-data")!.textContent!) as InspectData;
  const PAGE_SIZE = 100;
  const CHART_WIDTH = 1000;
  const CHART_HEIGHT = 300;
  const COLORS = ["#6b4c9a", "#8c564b", "#1f6fb4", "#2e7d32", "#e08a00", "#00838f", "#c2185b", "#757575"];
  const SVG = "http://www.w3.org/2000/svg";
  const number = (value: number): string => value.toLocaleString("en");
  const messagesOf = (count: number): string => `${number(count)} message${count === 1 ? "" : "s"}`;
  const byId = (id: string): HTMLElement => document.getElementById(id)!;
  const element = (tag: string, text?: string, className?: string): HTMLElement => {
    const made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    if (className !== undefined) made.className = className;
    return made;
  };

  // ── Summary ──
  const compactedRequests = data.requests.filter((request) => request.compacted).length;
  byId("summary").textContent =
    `${data.source.kind === "transcript" ? `Transcript (${data.source.format})` : `Stored session (${data.source.kind})`} · ` +
    `${number(data.messages.length)} messages · ${number(data.requests.length)} requests · configuration ${data.configuration} · ` +
    `budget ${number(data.budget)} tokens`;
  byId("compaction-count").textContent = String(data.compactions.length);
  if (data.timelineNote !== undefined) byId("timeline-note").textContent = data.timelineNote;
  byId("compactions-note").textContent = data.compactionsNote;

  // ── Timeline: one path per category, the budget line, the cached prefixes, the compactions ──
  const chart = byId("timeline-chart");
  const count = Math.max(1, data.requests.length);
  const top = Math.max(data.budget, ...data.requests.map((request) => request.total)) * 1.05;
  const y = (tokens: number): number => CHART_HEIGHT - (tokens / top) * CHART_HEIGHT;
  const width = CHART_WIDTH / count;
  const paths = data.categories.map(() => [] as string[]);
  const prefixes: string[] = [];
  const compactions: string[] = [];
  data.requests.forEach((request, index) => {
    const x = index * width;
    let base = 0;
    request.tokens.forEach((tokens, category) => {
      if (tokens <= 0) return;
      paths[category]!.push(
        `M${x.toFixed(2)} ${y(base + tokens).toFixed(2)}h${width.toFixed(3)}V${y(base).toFixed(2)}h${(-width).toFixed(3)}z`,
      );
      base += tokens;
    });
    if (request.sharedPrefix.tokens > 0) prefixes.push(`M${x.toFixed(2)} ${y(request.sharedPrefix.tokens).toFixed(2)}h${width.toFixed(3)}`);
    if (request.compacted) compactions.push(`M${(x + width / 2).toFixed(2)} 0V${CHART_HEIGHT}`);
  });
  const addPath = (d: string, attributes: Record<string, string>): SVGElement => {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d === "" ? "M0 0" : d);
    for (const [name, value] of Object.entries(attributes)) path.setAttribute(name, value);
    chart.appendChild(path);
    return path;
  };
  paths.forEach((segments, category) =>
    addPath(segments.join(""), { fill: COLORS[category % COLORS.length]!, "data-category": data.categories[category]!.key }),
  );
  addPath(compactions.join(""), {
    stroke: "#000",
    "stroke-width": "1",
    "stroke-dasharray": "4 3",
    "vector-effect": "non-scaling-stroke",
    id: "compaction-marks",
  });
  addPath(prefixes.join(""), { stroke: "#000", "stroke-width": "2", "vector-effect": "non-scaling-stroke", id: "prefix-marks" });
  const budgetLine = addPath(`M0 ${y(data.budget).toFixed(2)}H${CHART_WIDTH}`, {
    stroke: "#b00020",
    "stroke-width": "2",
    "stroke-dasharray": "8 4",
    "vector-effect": "non-scaling-stroke",
    id: "budget-line",
  });
  budgetLine.setAttribute("data-tokens", String(data.budget));
  const selection = addPath("", {
    fill: "none",
    stroke: "#111",
    "stroke-width": "2",
    "vector-effect": "non-scaling-stroke",
    id: "selected-request",
  });
  chart.setAttribute(
    "aria-label",
    `Tokens of each request's view, stacked by category, for ${number(data.requests.length)} requests against a budget of ${number(data.budget)} tokens; ${number(compactedRequests)} requests compacted.`,
  );
  byId("budget-label").textContent = `budget ${number(data.budget)} tokens`;
  byId("chart-top").textContent = `${number(Math.round(top))} tokens`;
  const legend = byId("legend");
  data.categories.forEach((category, index) => {
    const item = element("li");
    const swatch = element("span", undefined, "swatch");
    swatch.style.background = COLORS[index % COLORS.length]!;
    item.append(swatch, category.label);
    legend.appendChild(item);
  });

  // ── The selected request ──
  const slider = byId("request") as HTMLInputElement;
  slider.max = String(Math.max(0, data.requests.length - 1));
  const showRequest = (index: number): void => {
    const request: InspectRequest | undefined = data.requests[index];
    const details = byId("request-details");
    details.replaceChildren();
    if (request === undefined) {
      details.textContent = "No model call: the session has no assistant message after its first message.";
      return;
    }
    slider.value = String(index);
    selection.setAttribute("d", `M${(index * width).toFixed(2)} 0h${width.toFixed(3)}V${CHART_HEIGHT}h${(-width).toFixed(3)}z`);
    const share = data.budget === 0 ? 0 : (request.total / data.budget) * 100;
    const headline = request.refused
      ? `Request ${number(index + 1)} of ${number(data.requests.length)}, before message ${number(request.at)}: refused (even the smallest view did not fit ${number(data.budget)} tokens).`
      : `Request ${number(index + 1)} of ${number(data.requests.length)}, before message ${number(request.at)}: ${number(request.total)} of ${number(data.budget)} tokens (${share.toFixed(0)}%), ${messagesOf(request.viewLength)}. Cached prefix ended after ${messagesOf(request.sharedPrefix.messages)} (${number(request.sharedPrefix.tokens)} tokens).${request.compacted ? " Compacted on this request." : ""}`;
    details.appendChild(element("p", headline));
    const table = element("table");
    table.appendChild(element("caption", "The view's tokens by category"));
    const head = element("tr");
    const values = element("tr");
    request.tokens.forEach((tokens, category) => {
      const name = element("th", data.categories[category]!.label);
      name.setAttribute("scope", "col");
      head.appendChild(name);
      values.appendChild(element("td", number(tokens)));
    });
    const thead = element("thead");
    thead.appendChild(head);
    const tbody = element("tbody");
    tbody.appendChild(values);
    table.append(thead, tbody);
    details.appendChild(table);
    if (request.compaction !== undefined) {
      const open = element("button", `Show compaction #${request.compaction + 1}`);
      open.setAttribute("type", "button");
      open.addEventListener("click", () => openCompaction(request.compaction!));
      details.appendChild(open);
    }
  };
  slider.addEventListener("input", () => showRequest(Number(slider.value)));
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    showRequest(Math.min(data.requests.length - 1, Math.floor(((event.clientX - box.left) / box.width) * count)));
  });

  // ── Compactions: a line each; the before and after and the fates are built when opened ──
  const fateText = (run: InspectCompaction["receipt"]["fates"][number]): string =>
    `${run.from === run.to ? `message ${number(run.from)}` : `messages ${number(run.from)}–${number(run.to)}`}: ${run.fate}${run.strategy === undefined ? "" : ` by ${run.strategy}`}`;
  const bar = (label: string, tokens: readonly number[] | undefined, total: number): HTMLElement => {
    const row = element("div", undefined, "bar-row");
    row.appendChild(element("span", `${label}: ${number(total)} tokens`, "bar-label"));
    const track = element("div", undefined, "bar");
    track.setAttribute("role", "img");
    track.setAttribute("aria-label", `${label}: ${number(total)} tokens of ${number(data.budget)}`);
    const scale = Math.max(total, data.budget);
    (tokens ?? [total]).forEach((value, category) => {
      if (value <= 0) return;
      const part = element("span", undefined, "bar-part");
      part.style.width = `${((value / scale) * 100).toFixed(2)}%`;
      part.style.background = tokens === undefined ? "#555" : COLORS[category % COLORS.length]!;
      part.title = tokens === undefined ? `${number(value)} tokens` : `${data.categories[category]!.label}: ${number(value)} tokens`;
      track.appendChild(part);
    });
    const budgetMark = element("span", undefined, "bar-budget");
    budgetMark.style.left = `${((data.budget / scale) * 100).toFixed(2)}%`;
    track.appendChild(budgetMark);
    row.appendChild(track);
    return row;
  };
  const compactionList = byId("compactions");
  const detailsOf: HTMLDetailsElement[] = [];
  data.compactions.forEach((compaction, index) => {
    const { receipt } = compaction;
    const details = document.createElement("details");
    details.id = `compaction-${index + 1}`;
    const dropped = receipt.fateCounts.dropped + receipt.fateCounts.summarized + receipt.fateCounts.cleared + receipt.fateCounts.trimmed;
    const strategies = [...new Set(receipt.steps.filter((step) => step.applied).map((step) => step.strategy))].join(", ");
    const where = compaction.request === undefined ? "" : ` · request ${number(compaction.request + 1)}`;
    // Set by undoCompaction on a manager that can take a compaction back.
    const undoneAt = (receipt as { undoneAt?: string }).undoneAt;
    details.appendChild(
      element(
        "summary",
        `#${index + 1}${where} · ${receipt.reason} · ${number(receipt.tokensBefore)} → ${number(receipt.tokensAfter)} tokens · ${messagesOf(dropped)} changed${strategies === "" ? "" : ` by ${strategies}`}${undoneAt === undefined ? "" : ` · undone ${undoneAt}`}`,
      ),
    );
    details.addEventListener("toggle", () => {
      if (!details.open || details.dataset["built"] === "true") return;
      details.dataset["built"] = "true";
      const body = element("div", undefined, "compaction-body");
      body.appendChild(
        element(
          "p",
          `Receipt ${receipt.id}, ${receipt.at}: aimed for ${number(receipt.target)} tokens; the new view shares ${messagesOf(receipt.sharedPrefix.messages)} at its start (${number(receipt.sharedPrefix.tokens)} tokens) with the previous one.`,
        ),
      );
      body.appendChild(bar("before", compaction.before, receipt.tokensBefore));
      body.appendChild(bar("after", compaction.after, receipt.tokensAfter));
      const steps = element("ul");
      for (const step of receipt.steps)
        steps.appendChild(
          element(
            "li",
            `${step.strategy}: ${step.applied ? `${number(step.tokensBefore)} → ${number(step.tokensAfter)} tokens` : `not applied${step.skipped === undefined ? "" : ` (${step.skipped})`}`}`,
          ),
        );
      body.append(element("h4", "Pipeline steps"), steps);
      const fates = element("ul");
      const changed = receipt.fates.filter((run) => run.fate !== "kept");
      for (const run of changed) fates.appendChild(element("li", fateText(run)));
      body.append(element("h4", "What became of the history's messages"));
      body.appendChild(
        receipt.hasFates
          ? changed.length === 0
            ? element("p", "Every message was kept.")
            : fates
          : element("p", "Only this compaction's figures are kept (older than keepCompactionReceipts)."),
      );
      details.appendChild(body);
    });
    detailsOf.push(details);
    compactionList.appendChild(details);
  });
  const openCompaction = (index: number): void => {
    const details = detailsOf[index];
    if (details === undefined) return;
    details.open = true;
    details.querySelector("summary")!.focus();
  };

  // ── The next request, from explainView ──
  const next = byId("next");
  if (data.next === undefined) next.textContent = "This manager cannot explain its views (it has no explainView).";
  else
    next.textContent = `${number(data.next.tokens)} of ${number(data.next.budget)} tokens${data.next.compaction === undefined ? "" : `, after a compaction (${data.next.compaction})`}; it shares ${messagesOf(data.next.sharedPrefix.messages)} at its start (${number(data.next.sharedPrefix.tokens)} tokens) with the last view.`;

  // ── Messages: searched and shown a page at a time, so a long session stays quick ──
  const reasonOf = (message: InspectMessage): string => {
    switch (message.why) {
      case "protected":
        return "protected: a system or developer message";
      case "pinned":
        return "pinned";
      case "current-turn":
        return "the current turn (never dropped)";
      case "protect-first":
        return "among the first messages (protectFirst)";
      case "kept":
        return "kept: it fits the budget";
      case "edited":
        return `${message.form} by ${message.strategy}`;
      case "summarized":
        return `summarized by ${message.strategy}`;
      case "dropped":
        return message.strategy === "(repair)" ? "left out: a tool result with no call" : `dropped by ${message.strategy}`;
      default:
        return "not explained: the manager has no explainView";
    }
  };
  const lowered: string[] = [];
  const haystack = (index: number): string => {
    let text = lowered[index];
    if (text === undefined) {
      const message = data.messages[index]!;
      text = `${message.text}\n${message.role}\n${reasonOf(message)}`.toLowerCase();
      lowered[index] = text;
    }
    return text;
  };
  const search = byId("search") as HTMLInputElement;
  const formFilter = byId("form-filter") as HTMLSelectElement;
  const rows = byId("message-rows");
  let matches: number[] = [];
  let page = 0;
  const renderPage = (): void => {
    const pages = Math.max(1, Math.ceil(matches.length / PAGE_SIZE));
    page = Math.min(page, pages - 1);
    rows.replaceChildren();
    for (const index of matches.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)) {
      const message = data.messages[index]!;
      const row = element("tr");
      row.dataset["form"] = message.form;
      const head = element("th", String(message.index));
      head.setAttribute("scope", "row");
      const text = element("td", message.text.length > 400 ? `${message.text.slice(0, 400)}…` : message.text, "text");
      row.append(
        head,
        element("td", message.role),
        element("td", message.form),
        element("td", reasonOf(message), "reason"),
        element("td", `${number(message.viewTokens)} of ${number(message.tokens)}`),
        text,
      );
      rows.appendChild(row);
    }
    byId("page-status").textContent = `Page ${number(page + 1)} of ${number(pages)}`;
    (byId("previous-page") as HTMLButtonElement).disabled = page === 0;
    (byId("next-page") as HTMLButtonElement).disabled = page >= pages - 1;
    byId("match-count").textContent = `${number(matches.length)} of ${number(data.messages.length)} messages`;
  };
  const filter = (): void => {
    const query = search.value.trim().toLowerCase();
    const form = formFilter.value;
    matches = [];
    for (let index = 0; index < data.messages.length; index += 1) {
      if (form !== "" && data.messages[index]!.form !== form) continue;
      if (query !== "" && !haystack(index).includes(query)) continue;
      matches.push(index);
    }
    page = 0;
    renderPage();
  };
  search.addEventListener("input", filter);
  // The section links' last one lands in the search box itself, past every receipt's line.
  byId("to-search").addEventListener("click", (event) => {
    event.preventDefault();
    search.scrollIntoView({ block: "center" });
    search.focus();
  });
  formFilter.addEventListener("change", filter);
  byId("previous-page").addEventListener("click", () => {
    page -= 1;
    renderPage();
  });
  byId("next-page").addEventListener("click", () => {
    page += 1;
    renderPage();
  });

  filter();
  showRequest(Math.max(0, data.requests.length - 1));
  document.documentElement.dataset["ready"] = "true";
  performance.mark("inspect-ready");
}
