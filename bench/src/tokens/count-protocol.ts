// What the tokens benchmark asks of a counting child process, and what the child reports back.
export const LIBRARIES = ["ctxkit", "js-tiktoken", "gpt-tokenizer"] as const;
export type Library = (typeof LIBRARIES)[number];

export interface CountRequest {
  readonly library: Library;
  readonly text: string;
  /** Timed runs after the first, cold one. */
  readonly runs: number;
}

export type CountReport =
  | { readonly kind: "ready"; readonly importMs: number; readonly initMs: number }
  | { readonly kind: "sample"; readonly milliseconds: number; readonly tokens: number; readonly isCold: boolean };
