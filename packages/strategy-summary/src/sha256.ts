// SHA-256 that runs anywhere: Node's own where the runtime has it, else a JavaScript one that gives the same digests.

/** The part of a hash the digests use: Node's `Hash` has this shape, and so does the JavaScript fallback. */
export interface Sha256 {
  update(text: string): Sha256;
  copy(): Sha256;
  digest(encoding: "base64url"): string;
}

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const utf8 = new TextEncoder();
const schedule = new Uint32Array(64);

function rotate(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits));
}

function compress(state: Uint32Array, block: Uint8Array, offset: number): void {
  for (let index = 0; index < 16; index++) {
    const at = offset + 4 * index;
    schedule[index] = ((block[at]! << 24) | (block[at + 1]! << 16) | (block[at + 2]! << 8) | block[at + 3]!) >>> 0;
  }
  for (let index = 16; index < 64; index++) {
    const early = schedule[index - 15]!;
    const late = schedule[index - 2]!;
    const sigma0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >>> 3);
    const sigma1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >>> 10);
    schedule[index] = (schedule[index - 16]! + sigma0 + schedule[index - 7]! + sigma1) >>> 0;
  }
  let [a, b, c, d, e, f, g, h] = state as unknown as number[];
  for (let index = 0; index < 64; index++) {
    const step1 =
      (h! + (rotate(e!, 6) ^ rotate(e!, 11) ^ rotate(e!, 25)) + ((e! & f!) ^ (~e! & g!)) + ROUND_CONSTANTS[index]! + schedule[index]!) >>>
      0;
    const step2 = ((rotate(a!, 2) ^ rotate(a!, 13) ^ rotate(a!, 22)) + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) >>> 0;
    h = g;
    g = f;
    f = e;
    e = (d! + step1) >>> 0;
    d = c;
    c = b;
    b = a;
    a = (step1 + step2) >>> 0;
  }
  const rounds = [a, b, c, d, e, f, g, h];
  for (let index = 0; index < 8; index++) state[index] = (state[index]! + rounds[index]!) >>> 0;
}

function toBase64url(bytes: Uint8Array): string {
  let text = "";
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index]! << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const characters = index + 2 < bytes.length ? 4 : index + 1 < bytes.length ? 3 : 2;
    for (let position = 0; position < characters; position++) text += BASE64URL[(chunk >>> (18 - 6 * position)) & 63];
  }
  return text;
}

/** SHA-256 in JavaScript, for runtimes without Node's crypto (browsers, edge workers). */
export class JavaScriptSha256 implements Sha256 {
  private readonly state = new Uint32Array(INITIAL_STATE);
  private readonly pending = new Uint8Array(64);
  private pendingLength = 0;
  private totalBytes = 0;

  update(text: string): Sha256 {
    const bytes = utf8.encode(text);
    this.totalBytes += bytes.length;
    let offset = 0;
    if (this.pendingLength > 0) {
      const taken = Math.min(64 - this.pendingLength, bytes.length);
      this.pending.set(bytes.subarray(0, taken), this.pendingLength);
      this.pendingLength += taken;
      offset = taken;
      if (this.pendingLength < 64) return this;
      compress(this.state, this.pending, 0);
      this.pendingLength = 0;
    }
    for (; offset + 64 <= bytes.length; offset += 64) compress(this.state, bytes, offset);
    this.pending.set(bytes.subarray(offset), 0);
    this.pendingLength = bytes.length - offset;
    return this;
  }

  copy(): Sha256 {
    const copied = new JavaScriptSha256();
    copied.state.set(this.state);
    copied.pending.set(this.pending);
    copied.pendingLength = this.pendingLength;
    copied.totalBytes = this.totalBytes;
    return copied;
  }

  digest(_encoding: "base64url"): string {
    const state = new Uint32Array(this.state);
    const tail = new Uint8Array(this.pendingLength < 56 ? 64 : 128);
    tail.set(this.pending.subarray(0, this.pendingLength));
    tail[this.pendingLength] = 0x80;
    const bits = this.totalBytes * 8;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let offset = 0; offset < tail.length; offset += 64) compress(state, tail, offset);
    const output = new Uint8Array(32);
    const outputView = new DataView(output.buffer);
    for (let index = 0; index < 8; index++) outputView.setUint32(4 * index, state[index]!);
    return toBase64url(output);
  }
}

/**
 * A new SHA-256: Node's (through `process.getBuiltinModule`, so no `node:` import stops a bundle) where the
 * runtime has it, being several times faster; else the JavaScript one, which gives the same digests.
 */
export function createSha256(): Sha256 {
  const crypto = globalThis.process?.getBuiltinModule?.("node:crypto");
  return crypto === undefined ? new JavaScriptSha256() : crypto.createHash("sha256");
}
