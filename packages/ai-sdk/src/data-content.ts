// Binary and URL data as JSON-safe strings: a ctxkit history is plain JSON, the AI SDK's parts may hold bytes.
import type { DataContent } from "ai";

// Base64 never contains ":", so a string with a scheme is a URL (http, https, data, a provider's file scheme).
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function isUrlString(value: string): boolean {
  return URL_SCHEME.test(value);
}

function bytesOf(data: Exclude<DataContent, string>): Uint8Array {
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/** A URL as its `href`, bytes as base64, a string (base64 or URL) as it is. */
export function toDataString(data: DataContent | URL): string {
  if (data instanceof URL) return data.href;
  if (typeof data === "string") return data;
  return toBase64(bytesOf(data));
}

/** Base64 with btoa, in chunks (one call per 32 KB keeps the argument list small): edge runtimes have no Buffer. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(start, start + 0x8000) as unknown as number[]);
  }
  return btoa(binary);
}

// The few signatures worth knowing, so base64 without a media type still becomes a usable data URL.
const IMAGE_SIGNATURES: ReadonlyArray<readonly [string, string]> = [
  ["iVBORw0KGgo", "image/png"],
  ["/9j/", "image/jpeg"],
  ["R0lGOD", "image/gif"],
  ["UklGR", "image/webp"],
];

/** An image as an `image_url` URL: URLs stay, base64 and bytes become a data URL. */
export function toImageUrl(image: DataContent | URL, mediaType: string | undefined): string {
  const data = toDataString(image);
  if (isUrlString(data)) return data;
  const type = mediaType ?? IMAGE_SIGNATURES.find(([prefix]) => data.startsWith(prefix))?.[1] ?? "image/*";
  return `data:${type};base64,${data}`;
}

/** `data:<type>;base64,<data>` split in two, or `undefined` for any other URL. */
export function splitDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match === null ? undefined : { mediaType: match[1]!, data: match[2]! };
}
