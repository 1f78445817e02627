// OpenAI's image `detail` is, in the AI SDK, the OpenAI provider's `imageDetail` option on the part.
import type { ProviderOptions } from "./ai-sdk-hints.js";

export type ImageDetail = "auto" | "low" | "high";

function isImageDetail(value: unknown): value is ImageDetail {
  return value === "auto" || value === "low" || value === "high";
}

/** Takes `imageDetail` out of the part's options: the detail, and the options left (none when empty). */
export function takeImageDetail(providerOptions: ProviderOptions | undefined): { detail?: ImageDetail; providerOptions?: ProviderOptions } {
  const detail = providerOptions?.["openai"]?.["imageDetail"];
  if (providerOptions === undefined || !isImageDetail(detail)) return providerOptions === undefined ? {} : { providerOptions };
  const { imageDetail: _detail, ...openai } = providerOptions["openai"]!;
  const { openai: _openai, ...others } = providerOptions;
  const rest: ProviderOptions = Object.keys(openai).length === 0 ? others : { ...others, openai };
  return Object.keys(rest).length === 0 ? { detail } : { detail, providerOptions: rest };
}

/** Puts a detail back as the OpenAI provider's `imageDetail` option. */
export function putImageDetail(providerOptions: ProviderOptions | undefined, detail: unknown): ProviderOptions | undefined {
  if (!isImageDetail(detail)) return providerOptions;
  return { ...providerOptions, openai: { ...providerOptions?.["openai"], imageDetail: detail } };
}
