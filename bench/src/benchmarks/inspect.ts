// `ctxkit inspect`'s page for a long session: building it, its size, and its first paint in Chromium.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inspectTranscript, renderInspectPage } from "@ctxkit/cli";
import { createContextManager, type EventHandler, MemoryMessageStore } from "@ctxkit/core";
import { chromium } from "playwright-core";
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { formatDuration, median } from "../lib/measure.js";
import { generateSession } from "../sessions/generate-session.js";

export const name = "inspect";
export const description =
  "ctxkit inspect's page for a generated 10,000-message session: building its data, its size, and its first paint in Chromium (--screenshot also writes docs/inspect.png)";

const BUDGET = 24_000;
const CHROMIUM = process.env["CTXKIT_CHROMIUM_PATH"] || "/usr/bin/chromium";
const SCREENSHOT = fileURLToPath(new URL("../../../docs/inspect.png", import.meta.url));

const create = (onEvent: EventHandler) => createContextManager({ store: new MemoryMessageStore(), onEvent });

export async function run({ quick, flags = [] }: BenchmarkOptions): Promise<Table[]> {
  const size = quick ? 2_000 : 10_000;
  const messages = generateSession({ messages: size, meanOutputChars: 1_400 });
  const built = performance.now();
  const data = await inspectTranscript(
    { label: `generated session (${size.toLocaleString("en")} messages)`, format: "jsonl", messages },
    {
      configuration: "default",
      create,
      budget: BUDGET,
    },
  );
  const html = renderInspectPage(data);
  const buildMs = performance.now() - built;
  const folder = mkdtempSync(join(tmpdir(), "ctxkit-bench-inspect-"));
  const file = join(folder, "inspect.html");
  writeFileSync(file, html);
  const row = [
    size.toLocaleString("en"),
    data.requests.length.toLocaleString("en"),
    data.compactions.length.toLocaleString("en"),
    formatDuration(buildMs),
    `${(Buffer.byteLength(html) / 1_048_576).toFixed(1)} MB`,
  ];
  const columns = [
    "messages",
    "requests",
    "compactions",
    "build data + page",
    "page size",
    "first contentful paint",
    "page ready",
    "loads",
  ];
  const notes = [
    "first contentful paint: Chromium's own mark; page ready: the page's script has drawn the timeline, listed the compactions and shown the first page of messages (performance mark inspect-ready).",
    "Both are medians over fresh tabs loading the page from file://; the target is under 2 s.",
  ];
  try {
    if (!existsSync(CHROMIUM)) {
      notes.push(`Chromium was not timed: there is none at ${CHROMIUM} (apt-get update && apt-get install -y chromium).`);
      return [{ title: "ctxkit inspect: the page for a long session", columns, rows: [[...row, "-", "-", 0]], notes }];
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      const loads = quick ? 3 : 5;
      const paints: number[] = [];
      const readies: number[] = [];
      for (let load = 0; load < loads; load += 1) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(pathToFileURL(file).href);
        await page.waitForSelector("html[data-ready=true]", { timeout: 60_000 });
        const timing = await page.evaluate(() => ({
          paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
          ready: performance.getEntriesByName("inspect-ready")[0]?.startTime ?? Number.NaN,
        }));
        paints.push(timing.paint);
        readies.push(timing.ready);
        if (flags.includes("--screenshot") && load === 0) await screenshot(page);
        await page.close();
      }
      return [
        {
          title: "ctxkit inspect: the page for a long session",
          columns,
          rows: [[...row, formatDuration(median(paints)), formatDuration(median(readies)), loads]],
          notes,
        },
      ];
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The README's picture: the timeline and the first compaction opened, at a reader's window size. */
async function screenshot(page: import("playwright-core").Page): Promise<void> {
  await page.locator("#compactions summary").first().click();
  await page.evaluate("window.scrollTo(0, 0)");
  mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1250 } });
  process.stderr.write(`  inspect: wrote ${SCREENSHOT}\n`);
}
