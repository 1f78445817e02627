import { afterEach, describe, expect, it } from "vitest";
import { ContextArgumentError } from "../errors.js";
import { loadMountPlan } from "./load-mount-plan.js";
import { currentDirectory, nodeBuiltins } from "./node-builtins.js";

describe("nodeBuiltins", () => {
  const { getBuiltinModule } = process;
  afterEach(() => {
    process.getBuiltinModule = getBuiltinModule;
  });

  it("should give Node's modules in Node", () => {
    const { path, url } = nodeBuiltins("loadModule");
    expect(path.join("a", "b")).toBe(`a${path.sep}b`);
    expect(url.pathToFileURL("/x").protocol).toBe("file:");
  });

  describe("where the runtime has no Node modules, as an edge runtime has not", () => {
    it("should throw an error naming the operation and what to do instead", () => {
      Reflect.deleteProperty(process, "getBuiltinModule");
      expect(() => nodeBuiltins("loadModule")).toThrow(ContextArgumentError);
      expect(() => nodeBuiltins("loadModule")).toThrow(/loadModule.*runtime.*needs Node.*pass the plan object to mountPlan/s);
    });

    it("should make loadMountPlan reject with that error, not a ReferenceError", async () => {
      Reflect.deleteProperty(process, "getBuiltinModule");
      await expect(loadMountPlan({ file: "plan.json", env: {} })).rejects.toThrow(/loadMountPlan.*needs Node/s);
    });
  });
});

describe("currentDirectory", () => {
  it("should be the process's working directory", () => {
    expect(currentDirectory()).toBe(process.cwd());
  });
});
