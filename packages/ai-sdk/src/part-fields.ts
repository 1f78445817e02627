// Reads a ctxkit content part's fields by name, whichever part type core's union narrows it to.
import type { ContentPart } from "@ctxkit/core";

function field(part: ContentPart, key: string): unknown {
  return (part as unknown as Record<string, unknown>)[key];
}

/** An `image_url` part's URL and OpenAI detail. */
export function imageUrlOf(part: ContentPart): { url: string; detail?: unknown } {
  const image = field(part, "image_url") as { url?: unknown; detail?: unknown } | undefined;
  return { url: typeof image?.url === "string" ? image.url : "", ...(image?.detail === undefined ? {} : { detail: image.detail }) };
}

export function stringField(part: ContentPart, key: string): string | undefined {
  const value = field(part, key);
  return typeof value === "string" ? value : undefined;
}
