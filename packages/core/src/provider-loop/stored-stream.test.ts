import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import { memoryContext } from "../../test/memory-context.js";
import { ContextStreamError } from "./context-stream-error.js";
import { storedStream, type StreamAssembly } from "./stored-stream.js";
import { TurnInFlight } from "./turn-in-flight.js";

const earlier: Message[] = [
  { role: "user", content: "Earlier." },
  { role: "assistant", content: "Noted." },
];

/** Text pieces then `"end"`: whole only once `"end"` came; `"error"` is the provider's error event. */
function textAssembly(): StreamAssembly<string, string> {
  let text = "";
  let ended = false;
  return {
    add(event) {
      if (event === "error") throw new ContextStreamError("Test API", "its error event");
      if (event === "end") ended = true;
      else text += event;
    },
    finish: () => (ended ? text : undefined),
  };
}

async function* eventsOf(events: readonly string[]): AsyncGenerator<string> {
  yield* events;
}

async function streamOf(events: readonly string[], signal?: AbortSignal) {
  const manager = await memoryContext({ tokenizer: "estimate" });
  await manager.setMessages(earlier);
  const turn = await TurnInFlight.begin(manager);
  await turn.add([{ role: "user", content: "Hi" }]);
  const stream = storedStream({
    turn,
    events: eventsOf(events),
    assembly: textAssembly(),
    provider: "Test API",
    signal,
    store: (text) => turn.add([{ role: "assistant", content: text }]),
  });
  return { manager, stream };
}

describe("storedStream", () => {
  it("should pass each event on and store the assembled answer after the last one", async () => {
    const { manager, stream } = await streamOf(["Hel", "lo", "end"]);
    const read: string[] = [];
    for await (const event of stream) read.push(event);
    expect(read).toEqual(["Hel", "lo", "end"]);
    expect(await stream.finalResponse()).toBe("Hello");
    expect((await manager.getMessages()).slice(2)).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
    ]);
  });

  it("should read the stream itself when finalResponse is called first", async () => {
    const { manager, stream } = await streamOf(["Hi", " there", "end"]);
    expect(await stream.finalResponse()).toBe("Hi there");
    expect(await manager.getMessages()).toHaveLength(4);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(ContextStreamError);
  });

  it.each([
    ["left early (break)", ["Hel", "lo", "end"], "break"],
    ["ended short", ["Hel", "lo"], "read"],
    ["failed midway", ["Hel", "error", "lo", "end"], "read"],
  ] as const)("should take the turn back out of a stream %s and store no partial answer", async (_case, events, how) => {
    const { manager, stream } = await streamOf(events);
    const reading = (async () => {
      for await (const _event of stream) if (how === "break") break;
    })();
    if (how === "break") await reading;
    else await expect(reading).rejects.toBeInstanceOf(ContextStreamError);
    expect(await manager.getMessages()).toEqual(earlier);
    await expect(stream.finalResponse()).rejects.toBeInstanceOf(ContextStreamError);
  });

  it("should throw the abort's reason when an aborted request's stream ended quietly", async () => {
    const controller = new AbortController();
    controller.abort(new DOMException("stopped", "AbortError"));
    const { manager, stream } = await streamOf(["Hel"], controller.signal);
    await expect(stream.finalResponse()).rejects.toMatchObject({ name: "AbortError" });
    expect(await manager.getMessages()).toEqual(earlier);
  });
});
