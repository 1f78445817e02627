// A fresh npm project outside the workspace, with every packed package installed from its tarball.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { packPackages } from "../../../scripts/pack-packages.mjs";

const run = promisify(execFile);
// As in a user's shell: pnpm exports NODE_PATH to what it runs, which would find the workspace's packages.
const { NODE_PATH: _nodePath, ...userEnvironment } = process.env;
export const workspaceRoot = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = fileURLToPath(new URL("../__fixtures__/consumer/", import.meta.url));

export interface PackedPackage {
  readonly name: string;
  readonly manifest: {
    readonly peerDependencies?: Record<string, string>;
    readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    readonly devDependencies?: Record<string, string>;
  };
  readonly tarball: string;
}

export interface ConsumerProject {
  readonly folder: string;
  readonly packages: readonly PackedPackage[];
}

/**
 * A required peer is installed at the version its package is built and tested with (its devDependency),
 * not the newest the range admits: a peer's newest major may not run on this Node.
 */
function peerInstalls(packages: readonly PackedPackage[]): string[] {
  const installs = new Map<string, string>();
  for (const { manifest } of packages) {
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
      if (peer.startsWith("@ctxkit/") || manifest.peerDependenciesMeta?.[peer]?.optional === true) continue;
      const tested = manifest.devDependencies?.[peer];
      if (tested !== undefined) installs.set(peer, `${peer}@${tested}`);
    }
  }
  return [...installs.values()];
}

function typesNodeVersion(): string {
  const root = JSON.parse(readFileSync(join(workspaceRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  return root.devDependencies["@types/node"] ?? "20";
}

export async function createConsumerProject(): Promise<ConsumerProject> {
  // Outside the workspace, so nothing resolves through its node_modules or its pnpm settings.
  const folder = mkdtempSync(join(tmpdir(), "ctxkit-pack-consumer-"));
  const tarballs = join(folder, "tarballs");
  mkdirSync(tarballs);
  const packages = packPackages(workspaceRoot, tarballs) as PackedPackage[];
  writeFileSync(join(folder, "package.json"), `${JSON.stringify({ name: "ctxkit-consumer", private: true, type: "module" }, null, 2)}\n`);
  cpSync(fixtures, folder, { recursive: true });
  // --prefer-offline: whatever npm's cache already holds is not fetched again. @types/json-schema: the AI SDK's
  // declarations import `json-schema` without depending on its types, and the consumer checks every declaration.
  await run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...packages.map((pack) => pack.tarball),
      `@types/node@${typesNodeVersion()}`,
      "@types/json-schema@7.0.15",
      ...peerInstalls(packages),
    ],
    { cwd: folder, env: userEnvironment, timeout: 180_000 },
  );
  return { folder, packages };
}
