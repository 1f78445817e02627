// A horizontal bar chart, as SVG, of each system's cold start above a bare `node -e 0`, with the 30 ms target marked.
export interface ColdStartBar {
  readonly label: string;
  readonly milliseconds: number;
  readonly isHighlighted: boolean;
}

const WIDTH = 860;
const LABEL_WIDTH = 360;
const BAR_HEIGHT = 22;
const GAP = 8;
const TOP = 48;
const PLOT_WIDTH = WIDTH - LABEL_WIDTH - 90;

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function renderColdStartChart(bars: readonly ColdStartBar[], title: string, targetMs: number): string {
  const largest = Math.max(targetMs, ...bars.map((bar) => bar.milliseconds));
  const scale = (milliseconds: number): number => (Math.max(0, milliseconds) / largest) * PLOT_WIDTH;
  const height = TOP + bars.length * (BAR_HEIGHT + GAP) + 36;
  const rows = bars.map((bar, index) => {
    const y = TOP + index * (BAR_HEIGHT + GAP);
    const fill = bar.isHighlighted ? "#1f6feb" : "#8b949e";
    return [
      `<text x="${LABEL_WIDTH - 8}" y="${y + 15}" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${scale(bar.milliseconds).toFixed(1)}" height="${BAR_HEIGHT}" fill="${fill}"/>`,
      `<text x="${(LABEL_WIDTH + scale(bar.milliseconds) + 6).toFixed(1)}" y="${y + 15}">${Math.round(bar.milliseconds)} ms</text>`,
    ].join("");
  });
  const targetX = (LABEL_WIDTH + scale(targetMs)).toFixed(1);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="12" role="img" aria-label="${escapeXml(title)}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="20" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="12" y="36" fill="#57606a">median wall time of fresh processes above a bare node -e 0, to the first view of a ~20-message session</text>`,
    ...rows,
    `<line x1="${targetX}" y1="${TOP - 6}" x2="${targetX}" y2="${height - 30}" stroke="#cf222e" stroke-dasharray="4 3"/>`,
    `<text x="${targetX}" y="${height - 16}" fill="#cf222e" text-anchor="middle">target: ${targetMs} ms</text>`,
    "</svg>",
    "",
  ].join("\n");
}
