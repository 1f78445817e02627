// Tests' access to the readers' fixtures, and to the error a read throws.
import { readFileSync } from "node:fs";
import type { SessionReader } from "./session-reader.js";

export function fixtureText(name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
}

/** What `reader.read` threw on `text`, or undefined when it read it. */
export function readError(reader: SessionReader, file: string, text: string): unknown {
  try {
    reader.read({ file, text });
    return undefined;
  } catch (error) {
    return error;
  }
}
