// Finds an encoding's rank table on first use: checked, decoded once per process, and never at import.
import { ContextArgumentError } from "../errors.js";
import {
  type RankIndex,
  type RankLookup,
  type TiktokenRankTable,
  createRankLookup,
  indexRankTable,
  indexTiktokenRanks,
  readRankIndex,
} from "./rank-table.js";

export type TiktokenEncoding = "o200k_base" | "cl100k_base";

/**
 * A js-tiktoken rank file, as `import o200k_base from "js-tiktoken/ranks/o200k_base"` gives it. Accepted
 * where a rank table is, but slower to load (about 100 ms for o200k_base, against a few for a table).
 */
export interface TiktokenRanks {
  readonly bpe_ranks: string;
}

/** What `tiktokenCounter({ ranks })` accepts: ctxkit's compact table (`@ctxkit/core/ranks/<encoding>`) or js-tiktoken's file. */
export type TiktokenRankData = TiktokenRankTable | TiktokenRanks;

const lookups = new Map<TiktokenEncoding, RankLookup>();
// Lookups built from rank data a caller passed, per object: the same import shares one lookup.
const lookupsByData = new WeakMap<TiktokenRankData, RankLookup>();

function isRankTable(data: TiktokenRankData): data is TiktokenRankTable {
  return typeof (data as TiktokenRankTable).table === "string" && Number.isInteger((data as TiktokenRankTable).tokenCount);
}

function passRanksHint(encoding: TiktokenEncoding): string {
  return `import ${encoding} from "@ctxkit/core/ranks/${encoding}"; tiktokenCounter({ ranks: ${encoding} })`;
}

/** Checks rank data where the counter is made, so a wrong import fails where it is written. Returns the data's encoding, if it names one. */
export function checkRankData(data: TiktokenRankData, encoding: TiktokenEncoding | undefined): TiktokenEncoding | undefined {
  const where = `tiktokenCounter(${encoding === undefined ? "" : `"${encoding}"`})`;
  const wanted = encoding ?? "o200k_base";
  if (typeof data === "object" && data !== null && isRankTable(data)) {
    if (data.encoding !== "o200k_base" && data.encoding !== "cl100k_base") {
      throw new ContextArgumentError(where, [
        { path: "ranks.encoding", message: `unknown encoding ${JSON.stringify(data.encoding)}: ${passRanksHint(wanted)}` },
      ]);
    }
    if (encoding !== undefined && data.encoding !== encoding) {
      throw new ContextArgumentError(where, [
        { path: "ranks", message: `is the ${data.encoding} table, not ${encoding}'s: ${passRanksHint(encoding)}` },
      ]);
    }
    return data.encoding;
  }
  if (typeof (data as TiktokenRanks | undefined)?.bpe_ranks !== "string") {
    throw new ContextArgumentError(where, [
      { path: "ranks", message: `is neither a rank table nor a js-tiktoken rank file with a "bpe_ranks" string: ${passRanksHint(wanted)}` },
    ]);
  }
  return undefined;
}

function index(data: TiktokenRankData): RankIndex {
  return isRankTable(data) ? indexRankTable(data) : indexTiktokenRanks(data.bpe_ranks);
}

/**
 * Node's own loaders, reached without importing a `node:` module, so this file bundles for browsers and edge
 * workers; there `process.getBuiltinModule` does not exist, and the caller passes the table instead.
 * The build's prebuilt index (dist/ranks/<encoding>.bin) is one file read; without a build, the table is hashed here.
 */
function loadRankIndex(encoding: TiktokenEncoding): RankIndex {
  const node = globalThis.process;
  if (typeof node?.getBuiltinModule !== "function") throw new Error("this runtime cannot load files: it has no process.getBuiltinModule");
  const { readFileSync } = node.getBuiltinModule("node:fs");
  // From the build, the index sits beside this chunk (dist/ranks/): read without resolving the package, since
  // making a require and resolving through it costs a fresh process about 2 ms of CPU.
  try {
    const beside = readRankIndex(readFileSync(new URL(`./ranks/${encoding}.bin`, import.meta.url)));
    if (beside !== undefined) return beside;
  } catch {
    // Not a build (src/, a bundle): find the package's files instead.
  }
  const require = node.getBuiltinModule("node:module").createRequire(import.meta.url);
  // The package's own export, so the same line works from src/ and from a build in dist/.
  const tablePath =
    encoding === "o200k_base" ? require.resolve("@ctxkit/core/ranks/o200k_base") : require.resolve("@ctxkit/core/ranks/cl100k_base");
  try {
    const prebuilt = readRankIndex(readFileSync(tablePath.replace(/ranks([\\/][\w]+)\.cjs$/, "dist/ranks$1.bin")));
    if (prebuilt !== undefined) return prebuilt;
  } catch {
    // No build yet (tests run from src/): hash the table instead.
  }
  const loaded: unknown = require(tablePath);
  const table = (loaded as { default?: TiktokenRankTable }).default ?? (loaded as TiktokenRankTable);
  checkRankData(table, encoding);
  return indexRankTable(table);
}

function loadRankTable(encoding: TiktokenEncoding): RankLookup {
  try {
    return createRankLookup(loadRankIndex(encoding));
  } catch (error) {
    if (error instanceof ContextArgumentError) throw error;
    // In a bundle or an edge runtime there is nothing to load from: say how to hand the table over instead.
    throw new ContextArgumentError(
      `tiktokenCounter("${encoding}")`,
      [
        {
          path: "ranks",
          message:
            `Cannot load the ${encoding} rank table (${error instanceof Error ? error.message : String(error)}). ` +
            `In a bundle or an edge runtime, import it and pass it: ${passRanksHint(encoding)}.`,
        },
      ],
      { cause: error },
    );
  }
}

/** The encoding's lookup: from the data passed, else from the package's own table, each decoded once. */
export function getRankLookup(encoding: TiktokenEncoding, data: TiktokenRankData | undefined): RankLookup {
  if (data !== undefined) {
    let lookup = lookupsByData.get(data);
    if (lookup === undefined) {
      lookup = createRankLookup(index(data));
      lookupsByData.set(data, lookup);
    }
    return lookup;
  }
  let lookup = lookups.get(encoding);
  if (lookup === undefined) {
    lookup = loadRankTable(encoding);
    lookups.set(encoding, lookup);
  }
  return lookup;
}
