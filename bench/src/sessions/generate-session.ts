// Generated agent sessions: user turns, parallel tool calls with outputs from tiny to huge, answers.
import type { Message } from "@ctxkit/core";
import { createRandom } from "./random.js";

const WORDS =
  "the context manager keeps tool calls with their results and fits every view into the budget while the agent reads files runs tests and edits code".split(
    " ",
  );
const TOOLS = ["read_file", "bash", "grep", "edit_file", "list_directory"];

export interface GeneratedSessionOptions {
  /** Stop at this many messages. */
  messages: number;
  seed?: number;
  /** Mean characters of a tool output; a few outputs are ten times larger. Default 800. */
  meanOutputChars?: number;
}

function text(random: () => number, characters: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < characters) {
    const word = WORDS[Math.floor(random() * WORDS.length)]!;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(" ").slice(0, characters);
}

/** A deterministic session of exactly `messages` messages; only its last unit may be cut short. */
export function generateSession(options: GeneratedSessionOptions): Message[] {
  const random = createRandom(options.seed ?? 42);
  const meanOutput = options.meanOutputChars ?? 800;
  const session: Message[] = [{ role: "system", content: `You are a coding agent. ${text(random, 400)}` }];
  let turn = 0;
  while (session.length < options.messages) {
    turn += 1;
    session.push({ role: "user", content: `Task ${turn}: ${text(random, 80 + random() * 300)}` });
    const steps = 1 + Math.floor(random() * 4);
    for (let step = 0; step < steps && session.length < options.messages - 2; step += 1) {
      const calls = 1 + Math.floor(random() * (random() < 0.2 ? 4 : 1));
      const ids = Array.from({ length: calls }, (_, index) => `call_${turn}_${step}_${index}`);
      session.push({
        role: "assistant",
        content: random() < 0.5 ? null : text(random, 60 + random() * 200),
        tool_calls: ids.map((id) => ({
          id,
          type: "function",
          function: {
            name: TOOLS[Math.floor(random() * TOOLS.length)]!,
            arguments: JSON.stringify({ path: `src/${text(random, 12).replace(/ /g, "-")}.ts` }),
          },
        })),
      });
      for (const id of ids) {
        const size = random() < 0.05 ? meanOutput * 10 : meanOutput * (0.2 + random() * 1.6);
        session.push({ role: "tool", tool_call_id: id, content: text(random, Math.floor(size)) });
      }
    }
    session.push({ role: "assistant", content: text(random, 100 + random() * 500) });
  }
  return session.slice(0, options.messages);
}
