// Importing @ctxkit/core must be cheap: what costs (an ICU segmenter, a rank table) is made on first use.
import { afterEach, describe, expect, it, vi } from "vitest";

// Intl's members are read-only in the type declarations; the test swaps one and puts it back.
const writableIntl = Intl as { Segmenter: typeof Intl.Segmenter };

describe("importing @ctxkit/core", () => {
  const { Segmenter } = Intl;
  afterEach(() => {
    writableIntl.Segmenter = Segmenter;
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("should build no grapheme segmenter and load no rank table (regression)", async () => {
    vi.resetModules();
    let segmenters = 0;
    // Building one loads ICU's break rules: tens of milliseconds of a cold start.
    writableIntl.Segmenter = class extends Segmenter {
      constructor(...parameters: ConstructorParameters<typeof Segmenter>) {
        super(...parameters);
        segmenters += 1;
      }
    };
    const loads = vi.spyOn(process, "getBuiltinModule");
    const core = await import("./index.js");
    expect(segmenters).toBe(0);
    expect(loads).not.toHaveBeenCalled();

    // Making a counter loads nothing either: its table loads on the first count.
    core.tiktokenCounter();
    expect(loads).not.toHaveBeenCalled();
  });
});
