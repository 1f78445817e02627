import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const folder = fileURLToPath(new URL("..", import.meta.url));

describe("examples/anthropic-tool-loop", () => {
  it("should run its tool loop on the mock model, offline, when no key is set", async () => {
    const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
    const { stdout } = await run(process.execPath, ["--conditions=@ctxkit/source", "--import", "tsx", "src/main.ts"], {
      cwd: folder,
      env: { ...env, NODE_OPTIONS: "" },
      timeout: 60_000,
    });
    expect(stdout).toContain("a.txt and b.txt both greet the reader.");
    expect(stdout).toContain("history: 7 messages");
  });
});
