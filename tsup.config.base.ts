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
    // Shared chunks across entries: one copy of each class, so `instanceof` holds between `@ctxkit/core` and
    // `@ctxkit/core/testing`, and a multi-entry package ships its code once.
    splitting: true,
    ...overrides,
  });
}
