// What a user gets from npm: every package packed, installed from its tarball in a fresh project outside
// the workspace, then a consumer type-checked under nodenext and bundler resolution, run, and bundled.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createConsumerProject, type ConsumerProject } from "./consumer-project.js";

const run = promisify(execFile);
// As in a user's shell: pnpm exports NODE_PATH to what it runs, which would find the workspace's packages.
const { NODE_PATH: _nodePath, ...userEnvironment } = process.env;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
let project: ConsumerProject;
// Checked and emitted once, by the first test that needs it: tsc over every declaration takes seconds.
let nodenextCheck: Promise<string> | undefined;
const checkNodenext = () => (nodenextCheck ??= typeCheck("tsconfig.nodenext.json"));

async function runNode(file: string, cwd: string): Promise<string> {
  const { stdout } = await run(process.execPath, [file], { cwd, env: userEnvironment, timeout: 60_000 });
  return stdout;
}

/** Compiler errors are in stdout: show them in the failure, not just an exit code. */
async function typeCheck(config: string): Promise<string> {
  return run(process.execPath, [tsc, "-p", config], { cwd: project.folder, env: userEnvironment, timeout: 120_000 }).then(
    () => "",
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );
}

beforeAll(async () => {
  project = await createConsumerProject();
  // One import of every package's main entry, so a package added later is covered without a change here.
  const lines = project.packages.map((pack, index) => `import * as entry${index} from "${pack.name}";`);
  const counts = project.packages.map((pack, index) => `  ${JSON.stringify(pack.name)}: Object.keys(entry${index}).length,`);
  writeFileSync(
    join(project.folder, "all-entries.ts"),
    `${lines.join("\n")}\n\nconsole.log(JSON.stringify({\n${counts.join("\n")}\n}));\n`,
  );
});

afterAll(() => {
  if (project !== undefined) rmSync(project.folder, { recursive: true, force: true });
});

describe("packed packages installed with npm", () => {
  it("should type-check the consumer under moduleResolution nodenext, and emit it", async () => {
    expect(await checkNodenext()).toBe("");
  });

  it("should type-check the consumer under moduleResolution bundler", async () => {
    expect(await typeCheck("tsconfig.bundler.json")).toBe("");
  });

  it("should load every package's main entry", async () => {
    await checkNodenext();
    const counts = JSON.parse(await runNode(join(project.folder, "out-nodenext/all-entries.js"), project.folder)) as Record<string, number>;
    expect(Object.keys(counts).sort()).toEqual(project.packages.map((pack) => pack.name).sort());
    for (const count of Object.values(counts)) expect(count).toBeGreaterThan(0);
  });

  it("should run an agent loop: a view within budget, system first, pairs whole, one error class across entry points", async () => {
    await checkNodenext();
    const result = JSON.parse(await runNode(join(project.folder, "out-nodenext/agent-loop.js"), project.folder)) as Record<string, unknown>;
    expect(result).toMatchObject({
      historyLength: 121,
      firstRole: "system",
      lastContent: "The sum for f29.txt is 11600.",
      pairProblems: 0,
      sameErrorClass: true,
    });
    expect(result["viewLength"]).toBeLessThan(121);
  });

  it("should run an AI SDK tool loop through contextMiddleware: the prompt stays small, the history whole and paired", async () => {
    await checkNodenext();
    const result = JSON.parse(await runNode(join(project.folder, "out-nodenext/sdk-ai.js"), project.folder)) as Record<string, number>;
    expect(result).toMatchObject({ calls: 24, historyLength: 48, pairProblems: 0 });
    expect(result["largestPrompt"]).toBeLessThan(result["historyLength"]!); // compacted to the budget
  });

  it("should run an OpenAI SDK tool loop: every request compact, pair-safe and without metadata", async () => {
    await checkNodenext();
    const result = JSON.parse(await runNode(join(project.folder, "out-nodenext/sdk-openai.js"), project.folder)) as Record<string, unknown>;
    expect(result).toMatchObject({ requests: 24, historyLength: 49, pairProblems: 0, metadataSent: false });
    expect(result["largestRequest"]).toBeLessThan(result["historyLength"] as number); // compacted to the budget
  });

  it("should run an Anthropic SDK tool loop: every tool_use answered in the next message", async () => {
    await checkNodenext();
    const result = JSON.parse(await runNode(join(project.folder, "out-nodenext/sdk-anthropic.js"), project.folder)) as Record<
      string,
      number
    >;
    expect(result).toMatchObject({ requests: 24, historyLength: 49, unansweredToolUses: 0 });
    expect(result["largestRequest"]).toBeLessThan(result["historyLength"] as number); // compacted to the budget
  });

  it("should run a consumer bundled with esbuild --bundle --platform=node, away from node_modules, when it passes the ranks", async () => {
    // Outside the consumer project, so no node_modules folder is found above the bundle.
    const alone = mkdtempSync(join(tmpdir(), "ctxkit-pack-bundle-"));
    onTestFinished(() => rmSync(alone, { recursive: true, force: true }));
    await build({
      entryPoints: [join(project.folder, "bundled.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: join(alone, "bundled.mjs"),
      logLevel: "error",
    });
    const result = JSON.parse(await runNode(join(alone, "bundled.mjs"), alone)) as { viewTokens: number; defaultCounterError: string };
    expect(result.viewTokens).toBeGreaterThan(0);
    expect(result.defaultCounterError).toContain(
      'import o200k_base from "@ctxkit/core/ranks/o200k_base"; tiktokenCounter({ ranks: o200k_base })',
    );
  });

  it("should run the ctxkit-conformance command with npx", async () => {
    const { stdout } = await run(
      "npx",
      ["--no-install", "ctxkit-conformance", "@ctxkit/context-simple", "--runs", "3", "--seed", "1", "--no-color"],
      {
        cwd: project.folder,
        env: userEnvironment,
        timeout: 120_000,
      },
    );
    expect(stdout).toMatch(/PASSED: context-simple: \d+ passed, 0 failed/);
  });
});
