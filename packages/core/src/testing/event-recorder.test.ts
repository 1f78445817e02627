import { describe, expect, it } from "vitest";
import { createCoordinator } from "../coordinator/create-coordinator.js";
import { createEventRecorder } from "./event-recorder.js";

const repair = { kind: "dangling_call", toolCallIds: ["call_1"] } as const;

describe("createEventRecorder", () => {
  it("should record every context event emitted, in order", async () => {
    const coordinator = createCoordinator();
    const recorder = createEventRecorder(coordinator);
    await coordinator.hooks.emit("context:pre_compact", { messageCount: 3, tokenCount: 90, budget: 100 });
    await coordinator.hooks.emit("context:repair", repair);
    expect(recorder.events).toEqual([
      { event: "context:pre_compact", data: { messageCount: 3, tokenCount: 90, budget: 100 } },
      { event: "context:repair", data: repair },
    ]);
    expect(recorder.of("context:repair")).toEqual([repair]);
  });

  it("should only record the events it was given", async () => {
    const coordinator = createCoordinator();
    const recorder = createEventRecorder(coordinator, ["custom:event", "custom:event"]);
    await coordinator.hooks.emit("custom:event", 1);
    await coordinator.hooks.emit("context:repair", repair);
    expect(recorder.events).toEqual([{ event: "custom:event", data: 1 }]);
  });

  it("should record before a failing handler of higher priority", async () => {
    const coordinator = createCoordinator({ onHandlerError: () => {} });
    coordinator.hooks.register(
      "context:repair",
      () => {
        throw new Error("boom");
      },
      { priority: -1_000 },
    );
    const recorder = createEventRecorder(coordinator);
    await coordinator.hooks.emit("context:repair", repair);
    expect(recorder.of("context:repair")).toHaveLength(1);
  });

  it("should forget on clear and stop on dispose, keeping what it has", async () => {
    const coordinator = createCoordinator();
    const recorder = createEventRecorder(coordinator);
    await coordinator.hooks.emit("context:repair", repair);
    recorder.clear();
    expect(recorder.events).toEqual([]);
    await coordinator.hooks.emit("context:repair", repair);
    recorder.dispose();
    await coordinator.hooks.emit("context:repair", repair);
    expect(recorder.events).toHaveLength(1);
  });
});
