import { describe, expect, it } from "vitest";
import { ContextStoreUnavailableError } from "./store-errors.js";
import { WriteQueue } from "./write-queue.js";

/** A journal's durability modes, as a file store maps them onto a write queue. */
type Durability = "always" | "batch" | "none";

interface JournalSink {
  write(text: string): Promise<void>;
  sync(): Promise<void>;
}

/** A journal's queue: one write (and fsync, unless `none`) per commit; `always` commits each line alone. */
function journalQueue(sink: JournalSink, durability: Durability): WriteQueue<string> {
  return new WriteQueue<string>({
    commit: async (lines) => {
      await sink.write(`${lines.join("\n")}\n`);
      if (durability !== "none") await sink.sync();
    },
    grouping: durability === "always" ? "none" : "turn",
  });
}

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
  return { queue: journalQueue(sink, durability), calls };
};

describe("WriteQueue", () => {
  describe("turn grouping (a journal under batch)", () => {
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
      const queue = journalQueue(sink, "batch");
      const first = queue.append("a");
      await new Promise((resolve) => setTimeout(resolve, 5)); // the first batch is now being written
      const later = ["b", "c"].map((line) => queue.append(line));
      releaseWrite();
      await Promise.all([first, ...later]);
      expect(calls).toEqual(['write "a\\n"', "sync", 'write "b\\nc\\n"', "sync"]);
    });
  });

  describe("no grouping (a journal under always)", () => {
    it("should give every append its own write and fsync, in call order", async () => {
      const { queue, calls } = queueFor("always");
      await Promise.all(["a", "b"].map((line) => queue.append(line)));
      expect(calls).toEqual(['write "a\\n"', "sync", 'write "b\\n"', "sync"]);
    });
  });

  describe("a journal under none", () => {
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

  describe("queued grouping (one transaction for many rows)", () => {
    it("should commit the appends made while the commit waits for its turn together, without waiting a turn itself", async () => {
      const commits: string[][] = [];
      let release = (): void => {};
      const blocked = new Promise<void>((resolve) => (release = resolve));
      const queue = new WriteQueue<string>({ commit: async (items) => void commits.push([...items]), grouping: "queued" });
      const first = queue.exclusive(() => blocked);
      const appends = ["a", "b", "c"].map((item) => queue.append(item));
      release();
      await Promise.all([first, ...appends]);
      expect(commits).toEqual([["a", "b", "c"]]);
    });

    it("should close the gathering commit at a read, so a later append cannot overtake it", async () => {
      const calls: string[] = [];
      const queue = new WriteQueue<string>({ commit: async (items) => void calls.push(`commit ${items.join(",")}`), grouping: "queued" });
      const done = [queue.append("a"), queue.read(async () => void calls.push("sync")), queue.append("b")];
      await Promise.all(done);
      expect(calls).toEqual(["commit a", "sync", "commit b"]);
    });
  });

  describe("reads and typed failures", () => {
    it("should latch the failure as toFailure maps it, and still run reads after it", async () => {
      const queue = new WriteQueue<string>({
        commit: async () => {
          throw new Error("connection reset");
        },
        toFailure: (error) => new ContextStoreUnavailableError("test:session", { cause: error }),
      });
      await expect(queue.append("a")).rejects.toBeInstanceOf(ContextStoreUnavailableError);
      await expect(queue.exclusive(async () => "written")).rejects.toThrow(/connection reset/);
      await expect(queue.read(async () => "read")).resolves.toBe("read");
      expect(queue.failure?.error).toBeInstanceOf(ContextStoreUnavailableError);
    });

    it("should not let a failed read stop the writes", async () => {
      const queue = new WriteQueue<string>({ commit: async () => {} });
      await expect(
        queue.read(async () => {
          throw new Error("read failed");
        }),
      ).rejects.toThrow("read failed");
      await expect(queue.append("a")).resolves.toBeUndefined();
      expect(queue.failure).toBeUndefined();
    });
  });
});
