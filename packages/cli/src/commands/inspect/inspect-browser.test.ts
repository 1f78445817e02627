// `ctxkit inspect` as a person uses it: the built command in a real child process, its page in Debian's Chromium.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Message } from "@ctxkit/core";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = join(packageRoot, "bin/ctxkit.js");
/** scripts/test.mjs passes the browser it found as CTXKIT_CHROMIUM_PATH; Debian's package installs it here. */
const chromiumPath = process.env["CTXKIT_CHROMIUM_PATH"] || "/usr/bin/chromium";
const isBuilt = ["dist/cli.js", "../core/dist/index.js", "../context-persistent/dist/index.js"].every((file) =>
  existsSync(join(packageRoot, file)),
);
const hasChromium = existsSync(chromiumPath);

// Twelve turns of about 300 tokens each at a 1,200-token budget: the truncate preset drops the oldest turns.
const session: Message[] = [
  systemMessage("You are a coding agent."),
  ...Array.from({ length: 12 }, (_, index) => sampleTurn(index, 1_200)).flat(),
];
const folder = mkdtempSync(join(tmpdir(), "ctxkit-inspect-browser-"));
const transcript = join(folder, "session.jsonl");
const ARGUMENTS = ["inspect", transcript, "--preset", "truncate", "--budget", "1200"];

function describeInBrowser(name: string, body: () => void): void {
  if (isBuilt && hasChromium) describe(name, body);
  else if (!isBuilt) describe.skip(`${name} (skipped: run \`pnpm build\` first, there is no dist to run)`, body);
  else if (process.env["CI"])
    describe(name, () =>
      it("should find Chromium, which .ci/run installs", () => {
        throw new Error(`No Chromium at ${chromiumPath}: .ci/run must run \`bash scripts/chromium.sh install\` before the tests.`);
      }),
    );
  else describe.skip(`${name} (skipped: no Chromium at ${chromiumPath}; run \`apt-get update && apt-get install -y chromium\`)`, body);
}

/** Starts the command and resolves with the address it prints on stdout. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, ...ARGUMENTS], { cwd: folder, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^http:\/\/127\.0\.0\.1:\d+\/$/m.exec(stdout)?.[0];
      if (url !== undefined) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`ctxkit inspect exited ${code} before printing its address: ${stderr}`)));
  });
}

/** A message that would end the data's script element, start one and set a global, were it not escaped. */
const HOSTILE = 'Look: </script><script>globalThis.owned = true; document.title = "owned"</script><!--';

const ready = (page: Page) => page.waitForSelector("html[data-ready=true]");

describeInBrowser("ctxkit inspect in Chromium", () => {
  let browser: Browser;
  let server: { child: ChildProcess; url: string };

  // Starting the command and the browser on a busy two-core machine can take longer than a hook's default 10 s.
  beforeAll(async () => {
    writeFileSync(transcript, `${session.map((message) => JSON.stringify(message)).join("\n")}\n`);
    server = await startServer();
    browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server !== undefined && server.child.exitCode === null) server.child.kill("SIGTERM");
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  it("should show the compactions, their count in the heading matching the receipts listed", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await ready(page);
    const count = Number(await page.locator("#compaction-count").textContent());
    expect(count).toBeGreaterThan(0);
    await expect.poll(() => page.locator("#compactions details").count()).toBe(count);
    // Enter on a receipt's line opens it: the view before and after, and what became of the messages.
    await page.locator("#compactions summary").first().focus();
    await page.keyboard.press("Enter");
    const opened = page.locator("#compactions details").first();
    expect(await opened.getAttribute("open")).not.toBeNull();
    expect(await opened.textContent()).toMatch(/before: [\d,]+ tokens.*after: [\d,]+ tokens.*What became of the history's messages/s);
    await page.close();
  });

  it("should draw the budget line at the budget, and say the budget beside it", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await ready(page);
    expect(await page.locator("#budget-label").textContent()).toBe("budget 1,200 tokens");
    const line = page.locator("#budget-line");
    expect(await line.getAttribute("data-tokens")).toBe("1200");
    const chart = (await page.locator("#timeline-chart").boundingBox())!;
    const box = (await line.boundingBox())!;
    expect(box.width).toBeGreaterThan(chart.width * 0.9);
    expect(box.y).toBeGreaterThan(chart.y);
    expect(box.y).toBeLessThan(chart.y + chart.height);
    await page.close();
  });

  it("should reach the search box from the keyboard alone, then find a dropped message and the strategy that dropped it", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await ready(page);
    // The first Tabs reach the section links; Enter on the last one lands in the search box.
    let focused = "";
    for (let press = 0; press < 10 && focused !== "to-search"; press += 1) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.id ?? "");
    }
    expect(focused).toBe("to-search");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("search");
    expect(await page.evaluate(() => document.activeElement!.matches(":focus-visible"))).toBe(true);
    await page.keyboard.type("question 0");
    await expect.poll(() => page.locator("#message-rows tr").count()).toBe(1);
    const row = page.locator("#message-rows tr").first();
    expect(await row.locator("td.reason").textContent()).toBe("dropped by truncate");
    expect(await page.locator("#match-count").textContent()).toBe(`1 of ${session.length} messages`);
    await page.close();
  });

  it("should label every control and keep the text's contrast at 4.5:1 or more", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await ready(page);
    await expect.poll(() => page.getByLabel("Search messages").count()).toBe(1);
    expect(await page.getByRole("slider", { name: "Request" }).count()).toBe(1);
    expect(await page.getByRole("combobox", { name: "Form" }).count()).toBe(1);
    const ratio = await page.evaluate(() => {
      const channels = (color: string) => (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const luminance = (color: string) => {
        const [r = 0, g = 0, b = 0] = channels(color).map((value) => {
          const share = value / 255;
          return share <= 0.03928 ? share / 12.92 : ((share + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const text = luminance(getComputedStyle(document.querySelector(".note")!).color);
      const background = luminance(getComputedStyle(document.documentElement).backgroundColor);
      return (Math.max(text, background) + 0.05) / (Math.min(text, background) + 0.05);
    });
    expect(ratio).toBeGreaterThanOrEqual(4.5);
    await page.close();
  });

  it("should render the --html file from file:// with every network request blocked, a message's </script> shown as text", async () => {
    const file = join(folder, "inspect.html");
    const hostile = join(folder, "hostile.jsonl");
    const lines = [...session, { role: "user", content: HOSTILE }, { role: "assistant", content: "Done." }].map((message) =>
      JSON.stringify(message),
    );
    writeFileSync(hostile, `${lines.join("\n")}\n`);
    const argv = ["inspect", hostile, "--preset", "truncate", "--budget", "1200", "--html", file];
    const written = spawnSync(process.execPath, [bin, ...argv], { cwd: folder, encoding: "utf8" });
    expect(written.status).toBe(0);
    const page = await browser.newPage();
    const fetched: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      fetched.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    await ready(page);
    expect(Number(await page.locator("#compaction-count").textContent())).toBeGreaterThan(0);
    expect(await page.locator("#message-rows tr").count()).toBe(session.length + 2);
    await page.getByLabel("Search messages").fill("</script>");
    await expect.poll(() => page.locator("#message-rows tr").count()).toBe(1);
    expect(await page.locator("#message-rows td.text").first().textContent()).toBe(HOSTILE);
    expect(await page.title()).toBe(`ctxkit inspect: ${hostile}`);
    expect(await page.evaluate(() => (globalThis as { owned?: boolean }).owned)).toBeUndefined();
    expect(fetched).toEqual([]);
    await page.close();
  });

  it("should stop serving on SIGTERM and exit 0", async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
