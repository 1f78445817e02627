// The o200k_base rank table: pass it to tiktokenCounter({ ranks }) where the counter cannot load it itself.
declare const ranks: { readonly encoding: "o200k_base"; readonly tokenCount: number; readonly table: string };
export = ranks;
