import { ContextArgumentError } from "../errors.js";
import { describe, expect, it } from "vitest";
import { MountPointError } from "../errors.js";
import type { Provider } from "../protocol.js";
import { MockContextManager } from "../testing/mock-context-manager.js";
import { createMountPoints, MOUNT_POINTS, type MountPoint } from "./mount-points.js";

const provider = (name: string): Provider => ({ name, getInfo: () => ({ defaults: { contextWindow: 1_000 } }) });

describe("the context point", () => {
  it("should hold nothing until a manager is mounted", () => {
    expect(createMountPoints().get("context")).toBeUndefined();
  });

  it("should return the mounted manager", async () => {
    const points = createMountPoints();
    const manager = new MockContextManager();
    await points.mount("context", manager);
    expect(points.get("context")).toBe(manager);
  });

  it("should replace the manager when mounted again", async () => {
    const points = createMountPoints();
    const replacement = new MockContextManager();
    await points.mount("context", new MockContextManager());
    await points.mount("context", replacement);
    expect(points.get("context")).toBe(replacement);
  });

  it("should reject an instance that is not a ContextManager", async () => {
    const points = createMountPoints();
    await expect(points.mount("context", { addMessage() {} } as never)).rejects.toThrow(/not a ContextManager/);
    expect(points.get("context")).toBeUndefined();
  });

  it("should be empty after unmount", async () => {
    const points = createMountPoints();
    await points.mount("context", new MockContextManager());
    await points.unmount("context");
    expect(points.get("context")).toBeUndefined();
  });
});

describe("named points", () => {
  it("should hold several instances by name", async () => {
    const points = createMountPoints();
    const openai = provider("openai");
    const anthropic = provider("anthropic");
    await points.mount("providers", openai, { name: "openai" });
    await points.mount("providers", anthropic, { name: "anthropic" });
    expect(points.get("providers", "anthropic")).toBe(anthropic);
    expect([...points.get("providers")]).toEqual([
      ["openai", openai],
      ["anthropic", anthropic],
    ]);
  });

  it("should require a name", async () => {
    const points = createMountPoints();
    await expect(points.mount("tools", {}, {} as never)).rejects.toThrow(ContextArgumentError);
    await expect(points.mount("tools", {}, { name: "" })).rejects.toThrow(/options\.name: needs a non-empty name/);
  });

  it("should replace an instance mounted again under the same name", async () => {
    const points = createMountPoints();
    await points.mount("tools", "old", { name: "search" });
    await points.mount("tools", "new", { name: "search" });
    expect(points.get("tools", "search")).toBe("new");
    expect(points.get("tools").size).toBe(1);
  });

  it("should return a snapshot that later mounts do not change", async () => {
    const points = createMountPoints();
    const before = points.get("tools");
    await points.mount("tools", "x", { name: "x" });
    expect(before.size).toBe(0);
  });

  it("should unmount one name, or every instance when no name is given", async () => {
    const points = createMountPoints();
    await points.mount("tools", "a", { name: "a" });
    await points.mount("tools", "b", { name: "b" });
    await points.unmount("tools", "a");
    expect([...points.get("tools").keys()]).toEqual(["b"]);
    await points.unmount("tools");
    expect(points.get("tools").size).toBe(0);
  });

  it("should refuse to mount undefined", async () => {
    const points = createMountPoints();
    await expect(points.mount("tools", undefined, { name: "a" })).rejects.toThrow(/use unmount/);
  });
});

describe("unknown mount points", () => {
  const unknown = "orchestrator" as MountPoint;

  it("should throw MountPointError listing the known points from mount, get and unmount", async () => {
    const points = createMountPoints();
    await expect(points.mount(unknown as "tools", {}, { name: "x" })).rejects.toThrow(MountPointError);
    expect(() => points.get(unknown as "context")).toThrow(MountPointError);
    await expect(points.unmount(unknown)).rejects.toThrow(MountPointError);
  });

  it("should name the point and the known ones in the error", () => {
    const points = createMountPoints();
    let caught: unknown;
    try {
      points.get(unknown as "context");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MountPointError);
    expect((caught as MountPointError).point).toBe("orchestrator");
    expect((caught as MountPointError).message).toContain(MOUNT_POINTS.join(", "));
  });
});
