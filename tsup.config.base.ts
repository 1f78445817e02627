// The one build config every package re-exports: ESM only, with declarations.
import { defineConfig, type Options } from "tsup";

export function definePackageConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: true,
    clean: true,
    sourcemap: false,
    splitting: false,
    ...overrides,
  });
}
