// Types for rank-index.mjs, which rank-table.test.ts imports.
export declare const ENCODINGS: readonly ["o200k_base", "cl100k_base"];
export declare function buildRankIndexFile(table: { readonly tokenCount: number; readonly table: string }): Uint8Array;
