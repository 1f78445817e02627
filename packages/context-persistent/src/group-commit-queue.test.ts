import { describe, expect, it } from "vitest";
import { GroupCommitQueue, type JournalSink } from "./group-commit-queue.js";
import type { Durability } from "./message-store.js";

/** A sink that records what reaches it; `failOn` makes that call fail. */
function recordingSink(failOn?: "write" | "sync") {
  const calls: string[] = [];
  const sink: JournalSink = {
    write: async (text) => {
      calls.push(`write ${JSON.stringify(text)}`);
      if (failOn === "write") throw new Error("disk full");
    },
    sync: async () => {
      calls.push("sync");
      if (failOn === "sync") throw new Error("EIO");
    },
  };
  return { sink, calls };
}

const queueFor = (durability: Durability, failOn?: "write" | "sync") => {
  const { sink, calls } = recordingSink(failOn);
  return { queue: new GroupCommitQueue(sink, durability), calls };
};

describe("GroupCommitQueue", () => {
  describe("batch", () => {
    it("should give appends made together one write and one fsync", async () => {
      const { queue, calls } = queueFor("batch");
      await Promise.all(["a", "b", "c"].map((line) => queue.append(line)));
      expect(calls).toEqual(['write "a\\nb\\nc\\n"', "sync"]);
    });

    it("should let appends made later in the same turn, by callers resumed as microtasks, join the batch", async () => {
      const { queue, calls } = queueFor("batch");
      const first = queue.append("a");
      const later = Promise.resolve()
        .then(() => undefined)
        .then(() => queue.append("b"));
      await Promise.all([first, later]);
      expect(calls).toEqual(['write "a\\nb\\n"', "sync"]);
    });

    it("should gather the appends made while a batch is being written into the next batch", async () => {
      const calls: string[] = [];
      let releaseWrite = (): void => {};
      const writing = new Promise<void>((resolve) => (releaseWrite = resolve));
      let writes = 0;
      const sink: JournalSink = {
        write: async (text) => {
          calls.push(`write ${JSON.stringify(text)}`);
          if (++writes === 1) await writing;
        },
        sync: async () => void calls.push("sync"),
      };
      const queue = new GroupCommitQueue(sink, "batch");
      const first = queue.append("a");
      await new Promise((resolve) => setTimeout(resolve, 5)); // the first batch is now being written
      const later = ["b", "c"].map((line) => queue.append(line));
      releaseWrite();
      await Promise.all([first, ...later]);
      expect(calls).toEqual(['write "a\\n"', "sync", 'write "b\\nc\\n"', "sync"]);
    });
  });

  describe("always", () => {
    it("should give every append its own write and fsync, in call order", async () => {
      const { queue, calls } = queueFor("always");
      await Promise.all(["a", "b"].map((line) => queue.append(line)));
      expect(calls).toEqual(['write "a\\n"', "sync", 'write "b\\n"', "sync"]);
    });
  });

  describe("none", () => {
    it("should write without fsync", async () => {
      const { queue, calls } = queueFor("none");
      await Promise.all(["a", "b"].map((line) => queue.append(line)));
      expect(calls).toEqual(['write "a\\nb\\n"']);
    });
  });

  describe("exclusive", () => {
    it("should run after the appends called before it and before the appends called after it", async () => {
      const { queue, calls } = queueFor("batch");
      const done = [queue.append("a"), queue.exclusive(async () => void calls.push("rewrite")), queue.append("b")];
      await Promise.all(done);
      expect(calls).toEqual(['write "a\\n"', "sync", "rewrite", 'write "b\\n"', "sync"]);
    });
  });

  describe("a failed write", () => {
    it.each(["write", "sync"] as const)("should reject its batch and every later step when %s fails", async (failOn) => {
      const { queue, calls } = queueFor("batch", failOn);
      const first = Promise.allSettled([queue.append("a"), queue.append("b")]);
      const later = Promise.allSettled([queue.append("c")]);
      await Promise.resolve();
      const after = Promise.allSettled([queue.append("d"), queue.exclusive(async () => void calls.push("rewrite"))]);
      const outcomes = [...(await first), ...(await later), ...(await after)];
      expect(outcomes.every((outcome) => outcome.status === "rejected")).toBe(true);
      expect(calls.filter((call) => call.startsWith("write"))).toHaveLength(1);
      expect(calls).not.toContain("rewrite");
      expect(queue.failure?.error).toBeInstanceOf(Error);
    });
  });

  it("should settle once every queued step has, failed or not", async () => {
    const { queue, calls } = queueFor("batch", "write");
    const appended = queue.append("a").catch(() => "rejected");
    await queue.settled();
    expect(calls).toHaveLength(1);
    await expect(appended).resolves.toBe("rejected");
  });
});
