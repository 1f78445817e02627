import { describe, expect, it } from "vitest";
import { createContributorRegistry } from "./contributor-registry.js";
import type { HandlerErrorSource } from "./handler-error.js";

function createRecordingRegistry() {
  const failures: HandlerErrorSource[] = [];
  return { registry: createContributorRegistry((_error, source) => failures.push(source)), failures };
}

describe("collectContributions", () => {
  it("should collect values in registration order, awaiting async contributors", async () => {
    const { registry } = createRecordingRegistry();
    registry.registerContributor("observability.events", "first", () => ["context:pre_compact"]);
    registry.registerContributor("observability.events", "second", async () => ["context:repair"]);
    expect(await registry.collectContributions("observability.events")).toEqual([["context:pre_compact"], ["context:repair"]]);
  });

  it("should skip contributors that return undefined", async () => {
    const { registry } = createRecordingRegistry();
    registry.registerContributor("channel", "nothing", () => undefined);
    registry.registerContributor("channel", "something", () => 0);
    expect(await registry.collectContributions("channel")).toEqual([0]);
  });

  it("should return an empty list for a channel nobody contributes to", async () => {
    const { registry } = createRecordingRegistry();
    expect(await registry.collectContributions("empty")).toEqual([]);
  });

  it("should keep channels apart", async () => {
    const { registry } = createRecordingRegistry();
    registry.registerContributor("a", "one", () => "a");
    registry.registerContributor("b", "one", () => "b");
    expect(await registry.collectContributions("b")).toEqual(["b"]);
  });
});

describe("contributor failures", () => {
  it("should report and skip a throwing or rejecting contributor, keeping the others", async () => {
    const { registry, failures } = createRecordingRegistry();
    registry.registerContributor("channel", "thrower", () => {
      throw new Error("boom");
    });
    registry.registerContributor("channel", "rejecter", () => Promise.reject(new Error("boom")));
    registry.registerContributor("channel", "fine", () => "ok");
    expect(await registry.collectContributions("channel")).toEqual(["ok"]);
    expect(failures).toEqual([
      { kind: "contributor", channel: "channel", name: "thrower" },
      { kind: "contributor", channel: "channel", name: "rejecter" },
    ]);
  });
});

describe("registerContributor replacement and removal", () => {
  it("should replace a contributor registered again under the same name, in its first position", async () => {
    const { registry } = createRecordingRegistry();
    registry.registerContributor("channel", "a", () => "old a");
    registry.registerContributor("channel", "b", () => "b");
    registry.registerContributor("channel", "a", () => "new a");
    expect(await registry.collectContributions("channel")).toEqual(["new a", "b"]);
  });

  it("should remove a contributor through the returned function, but not its replacement", async () => {
    const { registry } = createRecordingRegistry();
    const removeOld = registry.registerContributor("channel", "a", () => "old");
    const removeB = registry.registerContributor("channel", "b", () => "b");
    registry.registerContributor("channel", "a", () => "new");
    removeOld();
    removeB();
    expect(await registry.collectContributions("channel")).toEqual(["new"]);
  });
});
