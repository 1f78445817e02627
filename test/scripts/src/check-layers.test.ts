import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CORE_LAYERS, checkLayers, layerOf, MAX_LINES } from "../../../scripts/check-layers.mjs";

const script = fileURLToPath(new URL("../../../scripts/check-layers.mjs", import.meta.url));

let root: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function linesOf(count: number): string {
  return `${Array.from({ length: count }, (_, index) => `export const line${index} = ${index};`).join("\n")}\n`;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctxkit-check-layers-"));
  // A downward import (engine reads messages) and a file of exactly the limit: both allowed.
  write("packages/core/src/messages/message.ts", "export type Message = { role: string };\n");
  write("packages/core/src/engine/view.ts", 'import type { Message } from "../messages/message.js";\nexport type View = Message[];\n');
  write("packages/other/src/at-limit.ts", linesOf(MAX_LINES));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("checkLayers", () => {
  it("should pass a tree whose imports run down the order and whose files are within the limit", () => {
    expect(checkLayers(root)).toEqual([]);
  });

  it("should name the file and line of an import that runs up the order", () => {
    write(
      "packages/core/src/messages/summary.ts",
      '// A message helper.\nimport type { View } from "../engine/view.js";\nexport type Summary = View;\n',
    );
    expect(checkLayers(root)).toEqual([
      expect.objectContaining({
        file: "packages/core/src/messages/summary.ts",
        line: 2,
        message: expect.stringContaining("../engine/view.js"),
      }),
    ]);
  });

  it("should allow a test file to import from any layer", () => {
    write("packages/core/src/messages/summary.test.ts", 'import type { View } from "../engine/view.js";\nexport type Checked = View;\n');
    expect(checkLayers(root)).toEqual([]);
  });

  it("should name a source file over the limit, in any package, tests included", () => {
    write("packages/other/src/long.test.ts", linesOf(MAX_LINES + 1));
    expect(checkLayers(root)).toEqual([
      expect.objectContaining({
        file: "packages/other/src/long.test.ts",
        line: MAX_LINES + 1,
        message: expect.stringContaining(`${MAX_LINES + 1} lines`),
      }),
    ]);
  });

  it("should hold a file over the limit to its allowance, and name it once it passes that", () => {
    write("packages/other/src/old.ts", linesOf(MAX_LINES + 5));
    const allowances = { "packages/other/src/old.ts": MAX_LINES + 5 };
    expect(checkLayers(root, { allowances })).toEqual([]);
    write("packages/other/src/old.ts", linesOf(MAX_LINES + 6));
    expect(checkLayers(root, { allowances })).toEqual([
      expect.objectContaining({ file: "packages/other/src/old.ts", line: MAX_LINES + 6, message: expect.stringContaining("allowance") }),
    ]);
  });

  it("should name a core file that no layer holds", () => {
    write("packages/core/src/new-area/thing.ts", "export const thing = 1;\n");
    expect(checkLayers(root)).toEqual([expect.objectContaining({ file: "packages/core/src/new-area/thing.ts", line: 1 })]);
  });
});

describe("layerOf", () => {
  it("should place a file named on its own before its folder", () => {
    const config = layerOf("modules/parse-config.ts");
    const modules = layerOf("modules/mount-plan.ts");
    expect(config).toBeDefined();
    expect(modules).toBeDefined();
    expect(CORE_LAYERS[config ?? -1]?.name).toBe("config");
    expect(config).toBeLessThan(modules ?? -1);
  });
});

describe("the command", () => {
  it("should exit 1 and print file:line for each problem", () => {
    write("packages/core/src/tokens/count.ts", 'import { view } from "../engine/view.js";\nexport const count = view;\n');
    let output = "";
    let status = 0;
    try {
      execFileSync(process.execPath, [script, root], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      status = failed.status;
      output = failed.stderr;
    }
    expect(status).toBe(1);
    expect(output).toContain("packages/core/src/tokens/count.ts:1: tokens imports ../engine/view.js from engine");
  });

  it("should exit 0 on a clean tree", () => {
    expect(() => execFileSync(process.execPath, [script, root], { stdio: "pipe" })).not.toThrow();
  });
});
