import { describe, expect, it } from "vitest";
import { buildOnFirstUse } from "./build-on-first-use.js";

describe("buildOnFirstUse", () => {
  it("should build nothing until the value is first asked for", () => {
    let builds = 0;
    buildOnFirstUse(() => {
      builds += 1;
      return {};
    });
    expect(builds).toBe(0);
  });

  it("should build once and return the same value on every call", () => {
    let builds = 0;
    const value = buildOnFirstUse(() => {
      builds += 1;
      return { built: builds };
    });
    const first = value();
    expect(value()).toBe(first);
    expect(first).toEqual({ built: 1 });
    expect(builds).toBe(1);
  });

  it("should keep a value that is undefined without building it again", () => {
    let builds = 0;
    const value = buildOnFirstUse(() => {
      builds += 1;
      return undefined;
    });
    value();
    value();
    expect(builds).toBe(1);
  });

  it("should build again after a build that threw, since nothing was kept", () => {
    let builds = 0;
    const value = buildOnFirstUse(() => {
      builds += 1;
      if (builds === 1) throw new Error("first build fails");
      return "built";
    });
    expect(() => value()).toThrow("first build fails");
    expect(value()).toBe("built");
  });
});
