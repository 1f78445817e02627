// `pnpm new` (scripts/new.mjs), the first step of every guide: run for real into a temporary folder that holds a minimal
// workspace, whose node_modules point at this repository's packages, so the generated TypeScript is checked against them.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "./markdown-documents.js";

const run = promisify(execFile);
const script = join(root, "scripts/new.mjs");
const fromCore = createRequire(join(root, "packages/core/package.json"));
const fromRoot = createRequire(join(root, "package.json"));
let workspace: string;

/** `node scripts/new.mjs …` into the temporary workspace: its exit code and what it printed. */
async function scaffold(...args: string[]): Promise<{ code: number; output: string }> {
  return run(process.execPath, [script, ...args, "--root", workspace, "--no-install"]).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}

const read = (path: string) => readFileSync(join(workspace, path), "utf8");

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "ctxkit-new-"));
  for (const file of ["tsconfig.base.json", "tsup.config.base.ts", "vitest.shared.ts", "biome.json", "packages/core/package.json"]) {
    mkdirSync(dirname(join(workspace, file)), { recursive: true });
    cpSync(join(root, file), join(workspace, file));
  }
  mkdirSync(join(workspace, "test/docs"), { recursive: true });
  writeFileSync(join(workspace, "test/docs/package.json"), `${JSON.stringify({ name: "docs", devDependencies: { zod: "1" } }, null, 2)}\n`);
  const modules = {
    "@ctxkit/core": join(root, "packages/core"),
    "@ctxkit/conformance": join(root, "packages/conformance"),
    zod: dirname(fromCore.resolve("zod/package.json")),
    "@types/node": dirname(fromRoot.resolve("@types/node/package.json")),
    vitest: dirname(fromRoot.resolve("vitest/package.json")),
  };
  for (const [name, target] of Object.entries(modules)) {
    mkdirSync(dirname(join(workspace, "node_modules", name)), { recursive: true });
    symlinkSync(target, join(workspace, "node_modules", name), "dir");
  }
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe("pnpm new, given what it cannot use", () => {
  it("should print its help with an example and exit 0", async () => {
    const { code, output } = await scaffold("--help");
    expect(code).toBe(0);
    expect(output).toContain("pnpm new store sqlite");
  });

  it.each([
    [[], "store, strategy, adapter or package"],
    [["cache", "redis"], '"cache" is not store, strategy, adapter or package'],
    [["store"], "name the store"],
    [["store", "Big_Store"], "is not a package name"],
    [["store", "one", "two"], 'unexpected argument "two"'],
    [["store", "one", "--colour"], "--colour"],
  ])("should exit 2 on %j, saying what is wrong", async (args, message) => {
    const { code, output } = await scaffold(...args);
    expect(code).toBe(2);
    expect(output).toContain(message);
  });
});

describe("pnpm new, given a folder that is not the repository", () => {
  it("should exit 1 saying what to pass, and write nothing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "ctxkit-new-empty-"));
    try {
      const failure = await run(process.execPath, [script, "store", "demo", "--root", empty, "--no-install"]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain("pass --root the ctxkit repository's folder");
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("pnpm new store, strategy, adapter and package", () => {
  beforeAll(async () => {
    for (const [kind, name] of [
      ["store", "demo-kv"],
      ["strategy", "keep-last"],
      ["adapter", "plain-chat"],
      ["package", "word-tools"],
    ]) {
      const { code, output } = await scaffold(kind!, name!);
      expect(output, output).toContain("Wrote");
      expect(code).toBe(0);
    }
  });

  it("should write each package with the manifest of the others and its own folder", () => {
    for (const folder of ["context-demo-kv", "strategy-keep-last", "plain-chat"]) {
      const manifest = JSON.parse(read(`packages/${folder}/package.json`));
      expect(manifest).toMatchObject({
        name: `@ctxkit/${folder}`,
        license: "MIT",
        repository: { directory: `packages/${folder}` },
        homepage: `https://github.com/ctxkit/ctxkit/tree/main/packages/${folder}#readme`,
        exports: { ".": { "@ctxkit/source": "./src/index.ts" } },
        publishConfig: { exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } } },
        devDependencies: { "@ctxkit/conformance": "workspace:^" },
      });
      expect(read(`packages/${folder}/vitest.config.ts`)).toContain(`definePackageTestConfig("${folder}")`);
      expect(existsSync(join(workspace, `.changeset/${folder}.md`))).toBe(true);
    }
    expect(Object.keys(JSON.parse(read("test/docs/package.json")).devDependencies)).toEqual([
      "@ctxkit/context-demo-kv",
      "@ctxkit/plain-chat",
      "@ctxkit/strategy-keep-last",
      "@ctxkit/word-tools",
      "zod",
    ]);
  });

  it("should write a plain package wired like the others, with a passing test and no suite to call", () => {
    const manifest = JSON.parse(read("packages/word-tools/package.json"));
    expect(manifest).toMatchObject({
      name: "@ctxkit/word-tools",
      license: "MIT",
      type: "module",
      repository: { directory: "packages/word-tools" },
      exports: { ".": { "@ctxkit/source": "./src/index.ts" } },
      publishConfig: { exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } } },
    });
    expect(manifest.devDependencies).toEqual({});
    expect(read("packages/word-tools/vitest.config.ts")).toContain('definePackageTestConfig("word-tools")');
    expect(read("packages/word-tools/tsup.config.ts")).toContain("definePackageConfig()");
    expect(read("packages/word-tools/src/index.ts")).toContain('export { wordTools } from "./word-tools.js"');
    expect(read("packages/word-tools/src/word-tools.test.ts")).toContain('expect(wordTools()).toBe("word-tools")');
    expect(read("packages/word-tools/README.md")).toContain('import { wordTools } from "@ctxkit/word-tools"');
    expect(read(".changeset/word-tools.md")).toContain('"@ctxkit/word-tools": minor');
  });

  it("should call each suite, and give each TODO stub a section of its guide that exists", () => {
    expect(read("packages/context-demo-kv/src/demo-kv-message-store.test.ts")).toContain("describeMessageStore(");
    expect(read("packages/context-demo-kv/src/module.ts")).toContain("defineStoreModule(");
    expect(read("packages/strategy-keep-last/src/keep-last-strategy.test.ts")).toContain("describeStrategy(");
    expect(read("packages/plain-chat/src/adapter-conformance.test.ts")).toContain("describeAdapter(");
    const stubs = [
      read("packages/context-demo-kv/src/demo-kv-message-store.ts"),
      read("packages/strategy-keep-last/src/keep-last-strategy.ts"),
      read("packages/plain-chat/src/plain-chat-messages.ts"),
    ].join("\n");
    const pointers = [...stubs.matchAll(/see (contributing\/[a-z-]+\.md)#([a-z-]+|\$\{[^}]+\})/g)];
    expect(pointers.length).toBeGreaterThanOrEqual(4);
    for (const [, guide, anchor] of pointers) {
      const headings = readFileSync(join(root, guide!), "utf8").match(/^#{1,4} .+$/gm) ?? [];
      const anchors = headings.map((heading) =>
        heading
          .replace(/^#+ /, "")
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, "")
          .replaceAll(" ", "-"),
      );
      // The store's stub names its method at run time: every method of the contract must have its section.
      const wanted = anchor!.startsWith("${") ? ["open", "load", "append", "writestate", "replace", "clear", "close"] : [anchor!];
      expect(anchors, `${guide} has no section for #${wanted.join(", #")}`).toEqual(expect.arrayContaining(wanted));
    }
  });

  it("should refuse to write over a package that exists", async () => {
    const before = read("packages/context-demo-kv/src/module.ts");
    const { code, output } = await scaffold("store", "demo-kv");
    expect(code).toBe(1);
    expect(output).toContain("packages/context-demo-kv already exists");
    expect(read("packages/context-demo-kv/src/module.ts")).toBe(before);
  });

  it("should write TypeScript that typechecks against the workspace's packages, and that Biome passes", async () => {
    writeFileSync(
      join(workspace, "tsconfig.json"),
      // Against the built packages' declarations, as the rest of this project runs against their builds: checking
      // core's and the kit's sources again would take ten times as long.
      JSON.stringify({
        extends: "./tsconfig.base.json",
        compilerOptions: { customConditions: [] },
        include: ["packages/*/src"],
      }),
    );
    const tsc = join(dirname(fromRoot.resolve("typescript/package.json")), "bin/tsc");
    const typecheck = await run(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: workspace }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    // Only the generated files' errors: a workspace package's own are its typecheck's to report (they print as ../…).
    expect(typecheck.stdout.split("\n").filter((line) => line.startsWith("packages/"))).toEqual([]);
    const biome = join(root, "node_modules/.bin/biome");
    const lint = await run(biome, ["check", "--vcs-enabled=false", "packages"], { cwd: workspace }).catch(
      (error: { stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr, failed: true }),
    );
    expect("failed" in lint ? `${lint.stdout}${lint.stderr}` : "").toBe("");
  });
});
