// Core, context-simple, strategy-summary and the adapters in edge runtimes: bundled for the browser and worker
// platforms, no node: import in either bundle, and a short session run in Vercel's edge runtime.
import { fileURLToPath } from "node:url";
import { EdgeRuntime } from "edge-runtime";
import { type BuildFailure, type BuildOptions, type Metafile, build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import type { EdgeSessionReport } from "./session-entry.js";

const entry = fileURLToPath(new URL("./session-entry.ts", import.meta.url));

/** The platforms an edge bundler targets: a browser, and a worker (Vercel's edge-light, Cloudflare's workerd). */
const PLATFORMS: Record<string, BuildOptions> = {
  browser: { platform: "browser", conditions: ["@ctxkit/source", "browser"] },
  // As wrangler and Vercel resolve a worker: the worker conditions first, then the browser's.
  worker: {
    platform: "neutral",
    mainFields: ["browser", "module", "main"],
    conditions: ["@ctxkit/source", "workerd", "edge-light", "worker", "browser"],
  },
};

interface Bundle {
  readonly code: string;
  readonly metafile: Metafile;
}

async function bundle(options: BuildOptions): Promise<Bundle> {
  const result = await build({
    ...options,
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    // Kept out rather than failing the build, so the check below can name every module that asks for one.
    external: ["node:*"],
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

/** Every `node:` import in the bundle, as "importer → module"; a bare builtin name would have failed the build. */
function nodeImports({ metafile }: Bundle): string[] {
  return Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports.filter((imported) => imported.path.startsWith("node:")).map((imported) => `${file} → ${imported.path}`),
  );
}

describe.each(Object.entries(PLATFORMS))("a %s bundle", (_platform, options) => {
  let built: Bundle;
  beforeAll(async () => {
    built = await bundle(options);
  });

  it("should import no node: module", () => {
    expect(nodeImports(built)).toEqual([]);
    expect(built.code).not.toMatch(/\b(?:from|import\(|require\()\s*["']node:/);
  });

  it("should run a session (messages in, a compaction, a view) in the edge runtime", async () => {
    const runtime = new EdgeRuntime({ initialCode: built.code });
    const report = (await runtime.evaluate<Promise<EdgeSessionReport>>("globalThis.edgeSession")) as EdgeSessionReport;
    expect(report.historyLength).toBe(34);
    expect(report.compactions).toBeGreaterThan(0);
    expect(report.viewLength).toBeLessThan(report.historyLength);
    expect(report.viewTokens).toBeLessThanOrEqual(1_200);
    expect(report.hasSummary).toBe(true);
    expect(report.adapterLengths.openai).toBe(report.viewLength);
    expect(report.adapterLengths.aiSdk).toBeGreaterThan(0);
    expect(report.adapterLengths.anthropic).toBeGreaterThan(0);
    expect(report.adapterLengths.google).toBeGreaterThan(0);
  });
});

describe("the stores that need Node", () => {
  it.each(["@ctxkit/context-persistent", "@ctxkit/context-postgres", "@ctxkit/context-redis"])(
    "should make a browser bundle of %s fail when it is built, naming the node condition",
    async (name) => {
      // As the package is published: no source condition, so its exports map is all there is.
      const failure = await build({
        stdin: { contents: `export * from "${name}";`, resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
        bundle: true,
        platform: "browser",
        write: false,
        logLevel: "silent",
      }).then(
        () => undefined,
        (error: BuildFailure) => error,
      );
      const notes = failure?.errors.flatMap((error) => [error.text, ...error.notes.map((note) => note.text)]).join("\n") ?? "";
      expect(notes).toContain(`Could not resolve "${name}"`);
      // Only the node condition leads to code: there is no "default" a browser could fall back on.
      expect(notes).toMatch(/conditions in the package definition \((?:"@ctxkit\/source", )?"types", "node"\) match/);
    },
  );
});
