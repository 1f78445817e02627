import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const folder = fileURLToPath(new URL("..", import.meta.url));

describe("examples/openai-agents", () => {
  it("should run its agent on the mock model, offline, when no key is set", async () => {
    const { OPENAI_API_KEY: _key, ...env } = process.env;
    const { stdout } = await run(process.execPath, ["--conditions=@ctxkit/source", "--import", "tsx", "src/main.ts"], {
      cwd: folder,
      env: { ...env, NODE_OPTIONS: "" },
      timeout: 60_000,
    });
    expect(stdout).toContain("The tool says: 18°C and clear in Paris");
    expect(stdout).toContain("session weather-demo: 4 items in view");
  });
});
