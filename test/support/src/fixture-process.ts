// Starts a fixture from a package's test/__fixtures__ in a real child process. Each fixture is bundled from
// source once per test file, so a child starts in a fraction of a second (a TypeScript loader would take
// about one). A package's tests call `fixturesOf(new URL("../", import.meta.url), external)`.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, rm, rmdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export interface FixtureProcess {
  readonly child: ChildProcess;
  /** Complete stdout lines so far. */
  readonly lines: string[];
  /** Resolves with the first line that matches. */
  waitForLine(matches: (line: string) => boolean): Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Fixtures of the package at `packageUrl` (its root folder's URL); `external` are the packages left out
 * of the bundles, resolved from that package's node_modules.
 */
export function fixturesOf(packageUrl: URL, external: readonly string[]) {
  const packageRoot = fileURLToPath(packageUrl);
  // Inside the package, so that the bundle's external imports resolve from its node_modules.
  // One folder per test file (each imports this module afresh), so parallel test files never share bundles.
  const bundles = `${packageRoot}.tmp/fixtures-${randomUUID()}/`;
  const built = new Map<string, Promise<string>>();

  function bundle(name: string): Promise<string> {
    let output = built.get(name);
    if (output === undefined) {
      const outfile = `${bundles}${name}.mjs`;
      output = build({
        entryPoints: [`${packageRoot}test/__fixtures__/${name}.ts`],
        outfile,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        // The workspace packages are bundled from their sources, exactly as the tests import them.
        conditions: ["@ctxkit/source"],
        external: [...external],
        logLevel: "error",
      }).then(() => outfile);
      built.set(name, output);
    }
    return output;
  }

  /** Removes this process's bundles; call from afterAll. */
  async function removeFixtureBundles(): Promise<void> {
    await rm(bundles, { recursive: true, force: true });
    // The shared parent goes too once the last test file is done with it.
    await rmdir(`${packageRoot}.tmp`).catch(() => {});
  }

  async function startFixture(name: string, args: readonly string[]): Promise<FixtureProcess> {
    await mkdir(bundles, { recursive: true });
    const child = spawn(process.execPath, [await bundle(name), ...args], { stdio: ["ignore", "pipe", "inherit"] });
    const lines: string[] = [];
    const waiters: Array<{ matches: (line: string) => boolean; resolve: (line: string) => void }> = [];
    let partial = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        for (const waiter of waiters.filter((candidate) => candidate.matches(line))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      // "close", not "exit": by then every line the child printed has been read.
      child.on("close", (code, signal) => resolve({ code, signal }));
    });
    const waitForLine = (matches: (line: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        const seen = lines.find(matches);
        if (seen !== undefined) return resolve(seen);
        waiters.push({ matches, resolve });
        void exited.then(({ code, signal }) =>
          reject(new Error(`the ${name} fixture exited (${code ?? signal}) before printing the line awaited`)),
        );
      });
    return { child, lines, waitForLine, exited };
  }

  return { startFixture, removeFixtureBundles };
}
