import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ModuleLoadError } from "../errors.js";
import { loadModule } from "./load-module.js";

const fixtures = fileURLToPath(new URL("../../test/__fixtures__/modules/", import.meta.url));
const fixture = (name: string) => path.join(fixtures, name);

async function catchLoadError(promise: Promise<unknown>): Promise<ModuleLoadError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModuleLoadError);
  return error as ModuleLoadError;
}

describe("loadModule by path", () => {
  it("should load a module by absolute path", async () => {
    const module = await loadModule(fixture("context-module.js"));
    expect(module.meta).toEqual({ type: "context", name: "fixture-context" });
    expect(typeof module.mount).toBe("function");
  });

  it("should resolve a relative path against process.cwd() by default", async () => {
    const relative = `./${path.relative(process.cwd(), fixture("strategy-module.js")).split(path.sep).join("/")}`;
    const module = await loadModule(relative);
    expect(module.meta.name).toBe("fixture-strategy");
  });

  it("should resolve a relative path against the cwd option", async () => {
    const module = await loadModule("./strategy-module.js", { cwd: fixtures });
    expect(module.meta.type).toBe("strategy");
  });

  it("should load a file URL", async () => {
    const module = await loadModule(pathToFileURL(fixture("context-module.js")).href);
    expect(module.meta.name).toBe("fixture-context");
  });

  it("should load a folder through its package.json exports", async () => {
    const module = await loadModule("./folder-module", { cwd: fixtures });
    expect(module.meta.name).toBe("fixture-folder");
  });

  it("should accept a module whose exports are one default object", async () => {
    const module = await loadModule(fixture("default-export-module.js"), { type: "strategy" });
    expect(typeof module.createStrategy).toBe("function");
  });
});

describe("loadModule by package name", () => {
  let temporary: string | undefined;

  afterEach(async () => {
    if (temporary !== undefined) await rm(temporary, { recursive: true, force: true });
    temporary = undefined;
  });

  it("should find a package installed under the cwd's node_modules", async () => {
    temporary = await mkdtemp(path.join(tmpdir(), "ctxkit-load-module-"));
    const folder = path.join(temporary, "node_modules", "@fixture", "installed");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "package.json"), JSON.stringify({ type: "module", main: "main.js" }));
    await writeFile(
      path.join(folder, "main.js"),
      [
        'export const meta = { type: "strategy", name: "installed" };',
        "export const configSchema = { safeParse: (data) => ({ success: true, data }) };",
        "export const createStrategy = () => ({ name: 'installed', apply: (view) => ({ view, applied: false }) });",
        "export function mount() {}",
      ].join("\n"),
    );
    const nested = path.join(temporary, "project", "src");
    await mkdir(nested, { recursive: true });
    const module = await loadModule("@fixture/installed", { cwd: nested });
    expect(module.meta.name).toBe("installed");
  });

  it("should turn a package that cannot be found into ModuleLoadError with the cause", async () => {
    const error = await catchLoadError(loadModule("@ctxkit/no-such-module", { cwd: fixtures }));
    expect(error.specifier).toBe("@ctxkit/no-such-module");
    expect(error.message).toContain("import failed");
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe("loadModule shape errors", () => {
  it("should reject a module without mount", async () => {
    const error = await catchLoadError(loadModule(fixture("no-mount-module.js")));
    expect(error.missing).toEqual(["mount"]);
    expect(error.message).toContain("mount (must be a function");
  });

  it("should name every bad export at once", async () => {
    const error = await catchLoadError(loadModule(fixture("bad-meta-module.js")));
    expect(error.missing).toEqual(["meta.type", "meta.name", "configSchema"]);
    expect(error.message).toContain('"context" or "strategy" (got "widget")');
  });

  it("should reject a strategy module without createStrategy", async () => {
    const error = await catchLoadError(loadModule(fixture("no-create-strategy-module.js")));
    expect(error.missing).toEqual(["createStrategy"]);
  });

  it("should reject a module of the other type when a type is expected", async () => {
    const error = await catchLoadError(loadModule(fixture("strategy-module.js"), { type: "context" }));
    expect(error.missing).toEqual(["meta.type"]);
    expect(error.message).toContain('"context" here (got "strategy")');
  });
});

describe("loadModule import errors", () => {
  it("should wrap an error thrown while importing, keeping the cause", async () => {
    const error = await catchLoadError(loadModule(fixture("throws-on-import-module.js")));
    expect(error.missing).toEqual([]);
    expect(error.message).toContain("fixture module exploded on import");
    expect((error.cause as Error).message).toBe("fixture module exploded on import");
  });

  it("should report a path that does not exist", async () => {
    const error = await catchLoadError(loadModule("./missing-module.js", { cwd: fixtures }));
    expect(error.message).toContain("missing-module.js");
  });

  it("should reject an empty specifier", async () => {
    await catchLoadError(loadModule("  "));
  });
});
