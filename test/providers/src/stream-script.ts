// How the imitations stream: server-sent-event frames, replies cut into pieces, and the faults a question asks for.

/** One server-sent event as the APIs write it: an optional `event:` line, one `data:` line, a blank line. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** `text` in pieces of `size` characters, never splitting one (so an emoji's surrogates stay together). */
export function piecesOf(text: string, size: number): string[] {
  const characters = [...text];
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += size) pieces.push(characters.slice(start, start + size).join(""));
  return pieces;
}

/**
 * What a streamed reply does midway, as the latest user message asks: `[fail midway]` sends the provider's error
 * event after half the reply, `[stall midway]` sends half and then holds the connection until the client leaves.
 */
export type StreamFault = "fail" | "stall";

export function streamFaultIn(question: string): StreamFault | undefined {
  if (question.includes("[fail midway]")) return "fail";
  if (question.includes("[stall midway]")) return "stall";
  return undefined;
}
