import { createMemoryStateStore } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { createSharedStrategyState } from "@ctxkit/conformance";
import { CheckpointStore, MAX_CHECKPOINTS, type Checkpoint } from "./checkpoint-store.js";

const checkpoint = (coveredThrough: number, text = `summary through ${coveredThrough}`): Checkpoint => ({
  coveredThrough,
  digest: `d${coveredThrough}`,
  verbatim: [0],
  text,
  tokensBefore: coveredThrough * 10,
  readFiles: ["a.ts"],
  modifiedFiles: [],
});

const coverage = (store: CheckpointStore) => store.list().map((stored) => stored.coveredThrough);

describe("CheckpointStore", () => {
  it("should give back a saved checkpoint", async () => {
    const store = new CheckpointStore(createMemoryStateStore());
    await store.save(checkpoint(7));
    expect(store.list()).toEqual([checkpoint(7)]);
  });

  it("should keep only the newest MAX_CHECKPOINTS and delete the records of the others", async () => {
    const state = createMemoryStateStore();
    const store = new CheckpointStore(state);
    for (let index = 0; index < MAX_CHECKPOINTS + 3; index += 1) await store.save(checkpoint(index));
    expect(coverage(store)).toEqual(Array.from({ length: MAX_CHECKPOINTS }, (_, index) => index + 3));
    expect(state.keys()).toHaveLength(MAX_CHECKPOINTS);
  });

  it("should save a checkpoint again as the newest, once", async () => {
    const store = new CheckpointStore(createMemoryStateStore());
    await store.save(checkpoint(1));
    await store.save(checkpoint(2));
    await store.save(checkpoint(1));
    expect(coverage(store)).toEqual([2, 1]);
  });

  it("should keep two checkpoints of the same messages with different texts", async () => {
    const store = new CheckpointStore(createMemoryStateStore());
    await store.save(checkpoint(4, "first"));
    await store.save(checkpoint(4, "second"));
    expect(store.list().map((stored) => stored.text)).toEqual(["first", "second"]);
  });

  it("should ignore malformed state rather than trust it", async () => {
    const record = { version: 1, ...checkpoint(3) };
    const state = createMemoryStateStore({
      "checkpoint:2:d2": { version: 1, text: 42 },
      // A record under a key that does not name it.
      "checkpoint:9:d9": record,
      other: record,
    });
    expect(new CheckpointStore(state).list()).toEqual([]);
  });

  it("should read checkpoints stored with the index of earlier versions, and drop the index at the next save", async () => {
    const state = createMemoryStateStore({
      checkpoints: [{ coveredThrough: 3, digest: "d3" }],
      "checkpoint:3:d3": { version: 1, ...checkpoint(3) },
    });
    const store = new CheckpointStore(state);
    expect(store.list()).toEqual([checkpoint(3)]);
    await store.save(checkpoint(5));
    expect(coverage(store)).toEqual([3, 5]);
    expect(state.get("checkpoints")).toBeUndefined();
  });

  it("should store plain JSON, so a persistent store can journal it", async () => {
    const state = createMemoryStateStore();
    await new CheckpointStore(state).save(checkpoint(4));
    const snapshot = state.snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  describe("writers of one shared session", () => {
    it("should keep the checkpoints of two writers that save at once (regression)", async () => {
      const shared = createSharedStrategyState("summary");
      const [first, second] = [shared.writer(), shared.writer()];
      await new CheckpointStore(first).save(checkpoint(7));
      // The second has not synced since: it has not seen the first's checkpoint.
      await new CheckpointStore(second).save(checkpoint(9));
      const reader = shared.writer();
      expect(coverage(new CheckpointStore(reader))).toEqual(expect.arrayContaining([7, 9]));
      expect(reader.keys()).toHaveLength(2);
    });

    it("should keep a writer's checkpoint when another, having seen it, saves its own of the same messages (regression)", async () => {
      const shared = createSharedStrategyState("summary");
      const [first, second] = [shared.writer(), shared.writer()];
      await new CheckpointStore(first).save(checkpoint(7, "the first's summary"));
      second.sync();
      await new CheckpointStore(second).save(checkpoint(7, "the second's summary"));
      const texts = new CheckpointStore(shared.writer()).list().map((stored) => stored.text);
      expect(texts.sort()).toEqual(["the first's summary", "the second's summary"]);
    });

    it("should store a checkpoint two writers save at once only once, and resolve for both", async () => {
      const shared = createSharedStrategyState("summary");
      const [first, second] = [shared.writer(), shared.writer()];
      await new CheckpointStore(first).save(checkpoint(7));
      await new CheckpointStore(second).save(checkpoint(7));
      expect(new CheckpointStore(shared.writer()).list()).toEqual([checkpoint(7)]);
    });

    it("should evict each old checkpoint once when two writers evict it at once", async () => {
      const shared = createSharedStrategyState("summary");
      const setup = new CheckpointStore(shared.writer());
      for (let index = 0; index < MAX_CHECKPOINTS; index += 1) await setup.save(checkpoint(index));
      const [first, second] = [shared.writer(), shared.writer()];
      await new CheckpointStore(first).save(checkpoint(100));
      await new CheckpointStore(second).save(checkpoint(101));
      const kept = coverage(new CheckpointStore(shared.writer()));
      expect(kept).not.toContain(0);
      expect(kept).toEqual(expect.arrayContaining([100, 101]));
    });
  });
});
