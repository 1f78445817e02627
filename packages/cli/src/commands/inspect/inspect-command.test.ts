// `ctxkit inspect` through the command line: its help, its usage errors, and serving the page until stopped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli.js";

const folder = mkdtempSync(join(tmpdir(), "ctxkit-inspect-command-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function run(argv: string[], signal = new AbortController().signal) {
  const out = { stdout: "", stderr: "" };
  const done = main(argv, {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    cwd: folder,
    env: {},
    signal,
  });
  return { out, done };
}

describe("ctxkit inspect", () => {
  it("should print its help with an example, and be listed in ctxkit --help", async () => {
    const help = run(["inspect", "--help"]);
    expect(await help.done).toBe(0);
    expect(help.out.stdout).toContain("Example:\n  ctxkit inspect ");
    const top = run(["--help"]);
    expect(await top.done).toBe(0);
    expect(top.out.stdout).toMatch(/^ {2}inspect SOURCE {2}/m);
  });

  it("should exit 2 naming what is missing when no session is named", async () => {
    const { out, done } = run(["inspect"]);
    expect(await done).toBe(2);
    expect(out.stderr).toContain("ctxkit inspect: name a session");
  });

  it("should exit 1 naming the file when the transcript cannot be read", async () => {
    const { out, done } = run(["inspect", "absent.json"]);
    expect(await done).toBe(1);
    expect(out.stderr).toContain(join(folder, "absent.json"));
  });

  it("should print the page's data as JSON with --json -, and serve nothing", async () => {
    const file = join(folder, "json-session.jsonl");
    const messages = [systemMessage("You are a coding agent."), ...sampleTurn(0, 400)];
    writeFileSync(file, `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`);
    const { out, done } = run(["inspect", "json-session.jsonl", "--json", "-"]);
    expect(await done).toBe(0);
    const data = JSON.parse(out.stdout) as { messages: { text: string }[]; requests: unknown[]; budget: number };
    expect(data.messages.map((message) => message.text)).toEqual([
      "You are a coding agent.",
      "question 0",
      'read_file({"path":"call_0.txt"})',
      `output 0 `.padEnd(400, "x"),
      "answer 0",
    ]);
    expect(data.requests).toHaveLength(2);
    expect(data.budget).toBe(24_000);
  });

  it("should serve the page on 127.0.0.1, print its address, and stop when its signal aborts", async () => {
    const file = join(folder, "session.jsonl");
    const messages = [systemMessage("You are a coding agent."), ...sampleTurn(0, 400), ...sampleTurn(1, 400)];
    writeFileSync(file, `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`);
    const controller = new AbortController();
    const { out, done } = run(["inspect", "session.jsonl"], controller.signal);
    await expect.poll(() => out.stdout, { timeout: 30_000 }).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\n$/);
    const url = out.stdout.trim();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain('<script type="application/json" id="inspect-data">');
    expect((await fetch(new URL("/elsewhere", url))).status).toBe(404);
    controller.abort();
    expect(await done).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});
