// Raw js-tiktoken o200k_base, as a LangChain user would count with it: built once per process (about 0.5 s).
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

let encoder: Tiktoken | undefined;

/** Tokens in `text`, special-token text read as plain text like every other counter here. */
export function encodeLength(text: string): number {
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text, [], []).length;
}
