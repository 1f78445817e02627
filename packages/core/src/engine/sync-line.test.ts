import { describe, expect, it } from "vitest";
import type { StoreUpdate } from "../store/message-store.js";
import { SyncLine } from "./sync-line.js";

const appended = (content: string): StoreUpdate => ({ kind: "appended", messages: [{ role: "user", content }] });

function lineOf() {
  const applied: string[] = [];
  const line = new SyncLine(async (update) => {
    if (update.kind === "appended") applied.push(...update.messages.map((message) => message.content as string));
  });
  return { line, applied };
}

describe("SyncLine", () => {
  it("should apply each change once, in the order asked for, whoever applies it", async () => {
    const { line, applied } = lineOf();
    const first = line.add(Promise.resolve(appended("a")));
    const second = line.add(Promise.resolve(appended("b")));
    const third = line.add(Promise.resolve(appended("c")));
    await second();
    expect(applied).toEqual(["a", "b"]);
    await line.catchUp();
    expect(line.isCaughtUp).toBe(true);
    await first();
    await third();
    expect(applied).toEqual(["a", "b", "c"]);
  });

  it("should give a failed change's error to the operation that asked for it, and to a catch-up that met it", async () => {
    const { line, applied } = lineOf();
    const failure = new Error("server gone");
    const failing = line.add(Promise.reject(failure));
    const after = line.add(Promise.resolve(appended("later")));
    await expect(line.catchUp()).rejects.toBe(failure);
    await expect(failing()).rejects.toBe(failure);
    await after();
    expect(applied).toEqual(["later"]);
  });
});
