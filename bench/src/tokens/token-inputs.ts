// The texts the tokens benchmark counts: two pathological runs and ~1 MB of ordinary text.
import { generateMixedText } from "./mixed-text.js";
import { readTranscriptText } from "./transcript-text.js";

export interface Input {
  readonly label: string;
  readonly text: string;
  /** One unbroken pre-token: quadratic for js-tiktoken, so its time limit is short. */
  readonly isPathological: boolean;
}

function chineseRun(length: number): string {
  return Array.from({ length }, (_, index) => String.fromCodePoint(0x4e00 + ((index * 7_919) % 20_000))).join("");
}

function megabytes(text: string): string {
  return `${(Buffer.byteLength(text, "utf8") / 1_000_000).toFixed(2)} MB`;
}

export function createInputs(quick: boolean): Input[] {
  const ordinaryLength = quick ? 250_000 : 1_000_000;
  const mixed = generateMixedText(ordinaryLength);
  const inputs: Input[] = [
    { label: "50,000 × 'a'", text: "a".repeat(50_000), isPathological: true },
    { label: "20,000 Chinese characters, no punctuation", text: chineseRun(20_000), isPathological: true },
    { label: `mixed prose/code/JSON, seeded (${megabytes(mixed)})`, text: mixed, isPathological: false },
  ];
  const transcripts = readTranscriptText(ordinaryLength);
  if (transcripts !== undefined) {
    inputs.push({ label: `agent transcripts, shared/data (${megabytes(transcripts)})`, text: transcripts, isPathological: false });
  }
  return inputs;
}
