// A hand-written SVG chart of cost against retention: one labelled point per system and budget, the Pareto frontier drawn.

export interface ChartPoint {
  readonly label: string;
  /** Billed input ÷ full history's (x). */
  readonly cost: number;
  /** Share of used facts in the view, 0–1 (y). */
  readonly retention: number;
  /** Which series (budget) the point belongs to, for its marker. */
  readonly series: string;
  /** Labelled first, so its label sits right beside it. */
  readonly isHighlighted?: boolean;
}

const WIDTH = 1100;
const HEIGHT = 720;
const MARGIN = { left: 70, right: 170, top: 60, bottom: 60 };
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

const escapeXml = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** The points no other point beats on both axes (cheaper or as cheap, and retaining as much or more), by cost. */
export function paretoFrontier(points: readonly ChartPoint[]): ChartPoint[] {
  const sorted = [...points].sort((first, second) => first.cost - second.cost || second.retention - first.retention);
  const frontier: ChartPoint[] = [];
  for (const point of sorted) if (frontier.length === 0 || point.retention > frontier.at(-1)!.retention) frontier.push(point);
  return frontier;
}

function ticks(maximum: number, step: number): number[] {
  const values: number[] = [];
  for (let value = 0; value <= maximum + 1e-9; value += step) values.push(Number(value.toFixed(6)));
  return values;
}

/** One label for points at the same place: "ctxkit default = truncate · 24k" for "ctxkit default · 24k" and "ctxkit truncate · 24k". */
function groupLabel(labels: readonly string[]): string {
  const suffix = labels[0]!.match(/ · [^·]+$/)?.[0] ?? "";
  const sameSuffix = suffix !== "" && labels.every((label) => label.endsWith(suffix));
  const heads = labels.map((label) => (sameSuffix ? label.slice(0, -suffix.length) : label));
  const prefix = heads[0]!.split(" ")[0]!;
  const shortened = heads.map((head, index) => (index > 0 && head.startsWith(`${prefix} `) ? head.slice(prefix.length + 1) : head));
  return `${shortened.join(" = ")}${sameSuffix ? suffix : ""}`;
}

export function renderCostChart(points: readonly ChartPoint[], title: string, xLabel: string): string {
  const maxCost = Math.max(1, ...points.map((point) => point.cost)) * 1.05;
  const minRetention = Math.max(0, Math.floor(Math.min(...points.map((point) => point.retention)) * 10) / 10 - 0.05);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (cost: number) => MARGIN.left + (cost / maxCost) * plotWidth;
  const y = (retention: number) => MARGIN.top + (1 - (retention - minRetention) / (1 - minRetention)) * plotHeight;
  const series = [...new Set(points.map((point) => point.series))];
  const colorOf = (name: string) => COLORS[series.indexOf(name) % COLORS.length]!;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="28" font-size="16" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const value of ticks(maxCost, maxCost > 2.4 ? 0.5 : maxCost > 1.2 ? 0.2 : 0.1)) {
    parts.push(`<line x1="${x(value)}" y1="${MARGIN.top}" x2="${x(value)}" y2="${MARGIN.top + plotHeight}" stroke="#eee"/>`);
    parts.push(`<text x="${x(value)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${value.toFixed(1)}×</text>`);
  }
  for (let value = Math.ceil(minRetention * 20) / 20; value <= 1 + 1e-9; value += 0.05) {
    parts.push(`<line x1="${MARGIN.left}" y1="${y(value)}" x2="${MARGIN.left + plotWidth}" y2="${y(value)}" stroke="#eee"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(value) + 4}" text-anchor="end">${Math.round(value * 100)}%</text>`);
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#333"/>`);
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 15}" text-anchor="middle">${escapeXml(xLabel)}</text>`);
  parts.push(
    `<text x="18" y="${MARGIN.top + plotHeight / 2}" text-anchor="middle" transform="rotate(-90 18 ${MARGIN.top + plotHeight / 2})">retention: share of the facts each call used that were in its view</text>`,
  );
  const frontier = paretoFrontier(points);
  parts.push(
    `<polyline points="${frontier.map((point) => `${x(point.cost).toFixed(1)},${y(point.retention).toFixed(1)}`).join(" ")}" fill="none" stroke="#888" stroke-dasharray="5 4" stroke-width="1.5"/>`,
  );
  // Points at the same place share one label. Each label goes beside its point, right or left, moved up
  // or down the least that keeps it clear of the labels and markers already placed.
  const groups = new Map<string, ChartPoint[]>();
  for (const point of points) {
    const key = `${x(point.cost).toFixed(0)},${y(point.retention).toFixed(0)},${point.series}`;
    groups.set(key, [...(groups.get(key) ?? []), point]);
  }
  const boxes: { left: number; top: number; right: number; bottom: number }[] = points.map((point) => ({
    left: x(point.cost) - 6,
    top: y(point.retention) - 6,
    right: x(point.cost) + 6,
    bottom: y(point.retention) + 6,
  }));
  const overlaps = (box: (typeof boxes)[number]) =>
    boxes.some((other) => box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom);
  // Labels placed first get the nearest places: the highlighted points, then by cost.
  const rank = (group: readonly ChartPoint[]) => (group.some((point) => point.isHighlighted === true) ? 0 : 1);
  const ordered = [...groups.values()].sort((first, second) => rank(first) - rank(second) || first[0]!.cost - second[0]!.cost);
  for (const group of ordered) {
    const point = group[0]!;
    const px = x(point.cost);
    const py = y(point.retention);
    const color = colorOf(point.series);
    parts.push(
      series.indexOf(point.series) === 0
        ? `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="5" fill="${color}"/>`
        : `<rect x="${(px - 4.5).toFixed(1)}" y="${(py - 4.5).toFixed(1)}" width="9" height="9" fill="${color}"/>`,
    );
  }
  for (const group of ordered) {
    const point = group[0]!;
    const px = x(point.cost);
    const py = y(point.retention);
    const color = colorOf(point.series);
    const text = groupLabel(group.map((member) => member.label));
    const width = text.length * 6.1;
    let chosen: { left: number; top: number; right: number; bottom: number; anchorX: number; baseline: number } | undefined;
    for (let step = 0; step < 40 && chosen === undefined; step += 1) {
      const shift = (step % 2 === 0 ? 1 : -1) * Math.ceil(step / 2) * 13;
      for (const side of [1, -1]) {
        const left = side === 1 ? px + 8 : px - 8 - width;
        const box = { left, top: py - 6 + shift, right: left + width, bottom: py + 7 + shift };
        if (
          left < MARGIN.left ||
          box.right > WIDTH - 4 ||
          box.top < MARGIN.top - 8 ||
          box.bottom > MARGIN.top + plotHeight ||
          overlaps(box)
        )
          continue;
        chosen = { ...box, anchorX: side === 1 ? left : left + width, baseline: py + 4 + shift };
        break;
      }
    }
    chosen ??= { left: px + 8, top: py - 6, right: px + 8 + width, bottom: py + 7, anchorX: px + 8, baseline: py + 4 };
    boxes.push(chosen);
    if (Math.abs(chosen.baseline - (py + 4)) > 1) {
      parts.push(
        `<line x1="${px.toFixed(1)}" y1="${py.toFixed(1)}" x2="${chosen.anchorX.toFixed(1)}" y2="${(chosen.baseline - 4).toFixed(1)}" stroke="${color}" stroke-width="0.6"/>`,
      );
    }
    parts.push(`<text x="${chosen.left.toFixed(1)}" y="${chosen.baseline.toFixed(1)}" fill="${color}">${escapeXml(text)}</text>`);
  }
  // Legend.
  const legendX = MARGIN.left + plotWidth + 20;
  series.forEach((name, index) => {
    const legendY = MARGIN.top + 10 + index * 20;
    parts.push(
      index === 0
        ? `<circle cx="${legendX + 5}" cy="${legendY}" r="5" fill="${colorOf(name)}"/>`
        : `<rect x="${legendX}" y="${legendY - 4.5}" width="9" height="9" fill="${colorOf(name)}"/>`,
    );
    parts.push(`<text x="${legendX + 16}" y="${legendY + 4}">budget ${escapeXml(name)}</text>`);
  });
  const frontierY = MARGIN.top + 10 + series.length * 20;
  parts.push(
    `<line x1="${legendX}" y1="${frontierY}" x2="${legendX + 12}" y2="${frontierY}" stroke="#888" stroke-dasharray="5 4" stroke-width="1.5"/>`,
  );
  parts.push(`<text x="${legendX + 16}" y="${frontierY + 4}">Pareto frontier</text>`);
  parts.push(`<text x="${legendX}" y="${frontierY + 28}" fill="#555">up and left is better</text>`);
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
