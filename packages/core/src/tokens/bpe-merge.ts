// Byte-pair merging of one pre-token piece, as tiktoken does it, with a heap of pairs instead of a scan per merge.
import { NO_RANK, type RankLookup } from "./rank-table.js";

/**
 * The longest run of UTF-8 bytes merged by BPE in one go: longer pieces (unbroken letters, Thai or
 * Chinese with no punctuation) are merged in chunks cut between characters, so every text counts in
 * linear time, within a token per chunk of tiktoken. Chosen by measurement: the heap merge costs
 * about the same per byte from 128 to 4,096, and 1,024 (~340 CJK or Thai characters) keeps real
 * sentences in every script exact.
 */
export const MAX_PIECE_BYTES = 1024;

// Scratch space sized for the largest piece; counting is synchronous, so one set suffices.
const POSITION_SCALE = 2 ** 20;
const nextStart = new Int32Array(MAX_PIECE_BYTES + 1);
const previousStart = new Int32Array(MAX_PIECE_BYTES + 1);
const pairRank = new Int32Array(MAX_PIECE_BYTES + 1);
const heap = new Float64Array(3 * MAX_PIECE_BYTES);
let heapSize = 0;

function heapPush(key: number): void {
  let index = heapSize++;
  while (index > 0) {
    const parent = (index - 1) >> 1;
    const parentKey = heap[parent] as number;
    if (parentKey <= key) break;
    heap[index] = parentKey;
    index = parent;
  }
  heap[index] = key;
}

function heapPop(): number {
  const top = heap[0] as number;
  const last = heap[--heapSize] as number;
  let index = 0;
  for (;;) {
    let child = 2 * index + 1;
    if (child >= heapSize) break;
    const right = child + 1;
    if (right < heapSize && (heap[right] as number) < (heap[child] as number)) child = right;
    if ((heap[child] as number) >= last) break;
    heap[index] = heap[child] as number;
    index = child;
  }
  heap[index] = last;
  return top;
}

/** The rank of the part at `start` joined with the part after it, positions relative to `offset`. */
function rankPair(bytes: Uint8Array, offset: number, length: number, lookup: RankLookup, start: number): number {
  const middle = nextStart[start] as number;
  if (middle >= length) return NO_RANK;
  return lookup.rankOf(bytes, offset + start, offset + (nextStart[middle] as number));
}

/**
 * Merges `bytes[offset..offset+length)` (at most MAX_PIECE_BYTES) and returns how many parts remain. It makes
 * tiktoken's merges (lowest rank first, leftmost on ties). The parts stay linked in `nextStart` for `mergeRanks`.
 */
export function mergeCount(bytes: Uint8Array, offset: number, length: number, lookup: RankLookup): number {
  const { bytePairRanks } = lookup;
  heapSize = 0;
  for (let start = 0; start < length; start++) {
    nextStart[start] = start + 1;
    previousStart[start] = start - 1;
  }
  pairRank[length - 1] = NO_RANK;
  for (let start = 0; start < length - 1; start++) {
    const rank = bytePairRanks[((bytes[offset + start] as number) << 8) | (bytes[offset + start + 1] as number)] as number;
    pairRank[start] = rank;
    if (rank !== NO_RANK) heapPush(rank * POSITION_SCALE + start);
  }
  let parts = length;
  while (heapSize > 0) {
    const key = heapPop();
    const start = key % POSITION_SCALE;
    // A pair's bytes only grow, and ranks are unique, so a changed pair never keeps its old rank.
    if (pairRank[start] !== (key - start) / POSITION_SCALE) continue;
    const absorbed = nextStart[start] as number;
    const end = nextStart[absorbed] as number;
    nextStart[start] = end;
    if (end < length) previousStart[end] = start;
    pairRank[absorbed] = NO_RANK;
    parts -= 1;
    const rank = rankPair(bytes, offset, length, lookup, start);
    pairRank[start] = rank;
    if (rank !== NO_RANK) heapPush(rank * POSITION_SCALE + start);
    const previous = previousStart[start] as number;
    if (previous >= 0) {
      const previousRank = rankPair(bytes, offset, length, lookup, previous);
      pairRank[previous] = previousRank;
      if (previousRank !== NO_RANK) heapPush(previousRank * POSITION_SCALE + previous);
    }
  }
  return parts;
}

/** The token ranks BPE gives `bytes[offset..offset+length)`, in order: what tiktoken's `encode` returns for the piece. */
export function mergeRanks(bytes: Uint8Array, offset: number, length: number, lookup: RankLookup): number[] {
  if (length === 0) return [];
  const whole = lookup.rankOf(bytes, offset, offset + length);
  if (whole !== NO_RANK) return [whole];
  mergeCount(bytes, offset, length, lookup);
  const ranks: number[] = [];
  for (let start = 0; start < length; start = nextStart[start] as number) {
    ranks.push(lookup.rankOf(bytes, offset + start, offset + (nextStart[start] as number)));
  }
  return ranks;
}
