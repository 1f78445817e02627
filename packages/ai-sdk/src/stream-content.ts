// Gathers a streamed response into the content a generate call would have returned, in the order it began.
import type { ResponseContent, StreamPart } from "./language-model-types.js";

export class StreamContent {
  private readonly content: ResponseContent[] = [];
  private readonly open = new Map<string, { text: string }>();

  add(part: StreamPart): void {
    switch (part.type) {
      case "text-start":
      case "reasoning-start": {
        const entry = {
          type: part.type === "text-start" ? "text" : "reasoning",
          text: "",
          ...(part.providerMetadata === undefined ? {} : { providerMetadata: part.providerMetadata }),
        } as ResponseContent & { text: string };
        this.content.push(entry);
        this.open.set(`${entry.type}:${part.id}`, entry);
        return;
      }
      case "text-delta":
      case "reasoning-delta": {
        const entry = this.open.get(`${part.type === "text-delta" ? "text" : "reasoning"}:${part.id}`);
        if (entry !== undefined) entry.text += part.delta;
        return;
      }
      case "text-end":
      case "reasoning-end": {
        const key = `${part.type === "text-end" ? "text" : "reasoning"}:${part.id}`;
        const entry = this.open.get(key) as { providerMetadata?: unknown } | undefined;
        // The end part may carry the final metadata (a reasoning signature, say).
        if (entry !== undefined && part.providerMetadata !== undefined) entry.providerMetadata = part.providerMetadata;
        this.open.delete(key);
        return;
      }
      case "tool-call":
      case "tool-result":
      case "file":
        this.content.push(part);
        return;
      default:
        return;
    }
  }

  result(): ResponseContent[] {
    return this.content;
  }
}
