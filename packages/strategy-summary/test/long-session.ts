// A long, deterministic agent session: turns of a request, several tool calls (reads and edits) and an answer.
import type { Message } from "@ctxkit/core";
import { assistant, call, result, user } from "./messages.js";

/** A small deterministic generator, so a failure replays the same way. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** At least `messageCount` messages; tool outputs between 100 and 3 000 characters. */
export function createLongSession(messageCount: number, seed = 7): Message[] {
  const random = createRandom(seed);
  const messages: Message[] = [];
  for (let turnIndex = 0; messages.length < messageCount; turnIndex += 1) {
    messages.push(user(`Request ${turnIndex}: please look into module ${turnIndex % 17} and fix what is wrong.`));
    const units = 1 + Math.floor(random() * 8);
    for (let unit = 0; unit < units; unit += 1) {
      const id = `call_${turnIndex}_${unit}`;
      const file = `src/module-${Math.floor(random() * 60)}.ts`;
      const isEdit = random() < 0.25;
      messages.push(call(isEdit ? "edit_file" : "read_file", [id], isEdit ? { path: file, old: "a", new: "b" } : { path: file }));
      messages.push(result(id, `contents of ${file} `.padEnd(100 + Math.floor(random() * 2_900), "lorem ipsum ")));
    }
    messages.push(assistant(`Turn ${turnIndex} done: module ${turnIndex % 17} now passes its tests.`));
  }
  return messages;
}
