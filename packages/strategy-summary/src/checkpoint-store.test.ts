import { createMemoryStateStore } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { CheckpointStore, MAX_CHECKPOINTS, type Checkpoint } from "./checkpoint-store.js";

const checkpoint = (coveredThrough: number, digest = `d${coveredThrough}`): Checkpoint => ({
  coveredThrough,
  digest,
  verbatim: [0],
  text: `summary through ${coveredThrough}`,
  tokensBefore: coveredThrough * 10,
  readFiles: ["a.ts"],
  modifiedFiles: [],
});

describe("CheckpointStore", () => {
  it("should give back a saved checkpoint by what it covers", async () => {
    const store = new CheckpointStore(createMemoryStateStore());
    await store.save(checkpoint(7));
    expect(store.keys()).toEqual([{ coveredThrough: 7, digest: "d7" }]);
    expect(store.get({ coveredThrough: 7, digest: "d7" })).toEqual(checkpoint(7));
    expect(store.get({ coveredThrough: 7, digest: "other" })).toBeUndefined();
  });

  it("should keep only the newest MAX_CHECKPOINTS and delete the records of the others", async () => {
    const state = createMemoryStateStore();
    const store = new CheckpointStore(state);
    for (let index = 0; index < MAX_CHECKPOINTS + 3; index += 1) await store.save(checkpoint(index));
    expect(store.keys().map((key) => key.coveredThrough)).toEqual(Array.from({ length: MAX_CHECKPOINTS }, (_, index) => index + 3));
    expect(Object.keys(state.snapshot())).toHaveLength(MAX_CHECKPOINTS + 1);
  });

  it("should save a checkpoint again as the newest, once", async () => {
    const store = new CheckpointStore(createMemoryStateStore());
    await store.save(checkpoint(1));
    await store.save(checkpoint(2));
    await store.save(checkpoint(1));
    expect(store.keys().map((key) => key.coveredThrough)).toEqual([2, 1]);
  });

  it("should ignore malformed state rather than trust it", async () => {
    const state = createMemoryStateStore({
      checkpoints: [{ coveredThrough: 3, digest: "d3" }],
      "checkpoint:3:d3": { version: 1, text: 42 },
    });
    const store = new CheckpointStore(state);
    expect(store.get({ coveredThrough: 3, digest: "d3" })).toBeUndefined();
    expect(new CheckpointStore(createMemoryStateStore({ checkpoints: "nonsense" })).keys()).toEqual([]);
  });

  it("should store plain JSON, so a persistent store can journal it", async () => {
    const state = createMemoryStateStore();
    await new CheckpointStore(state).save(checkpoint(4));
    const snapshot = state.snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });
});
