// The AI SDK's model-layer types, reached through the `ai` package so that it stays the only peer dependency.
import type { LanguageModelMiddleware } from "ai";

type WrapGenerateOptions = Parameters<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>[0];
type WrapStreamOptions = Parameters<NonNullable<LanguageModelMiddleware["wrapStream"]>>[0];

export type LanguageModelCallOptions = WrapGenerateOptions["params"];
export type LanguageModelPrompt = LanguageModelCallOptions["prompt"];
export type GenerateResult = Awaited<ReturnType<WrapGenerateOptions["doGenerate"]>>;
export type StreamResult = Awaited<ReturnType<WrapStreamOptions["doStream"]>>;
export type ResponseContent = GenerateResult["content"][number];
export type StreamPart = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;
export type ModelUsage = GenerateResult["usage"];
