// Hostile values for every option of every config schema in the repository: each is refused with a
// ContextConfigError naming the option, or is one the runtime can honour. The schemas and their options
// are found, not listed: a package that exports a configSchema, and any option it gains, is covered.
import { readdirSync, readFileSync } from "node:fs";
import { ContextConfigError } from "@ctxkit/core";
import { BUILT_IN_STRATEGY_SCHEMAS, contextConfigSchema, parseConfig } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { canHonour, configWith, type SchemaOption, schemaOptions } from "./schema-options.js";

const packagesFolder = new URL("../../../packages/", import.meta.url);

/** Each workspace package whose entry exports a `configSchema`: its name, and its entry's exports. */
async function modulesWithConfigSchemas(): Promise<{ name: string; configSchema: z.core.$ZodType }[]> {
  const found: { name: string; configSchema: z.core.$ZodType }[] = [];
  for (const folder of readdirSync(packagesFolder, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    let entry: string;
    try {
      entry = readFileSync(new URL(`${folder.name}/src/index.ts`, packagesFolder), "utf8");
    } catch {
      continue;
    }
    if (!/export\s*\{[^}]*\bconfigSchema\b/.test(entry)) continue;
    const { name } = JSON.parse(readFileSync(new URL(`${folder.name}/package.json`, packagesFolder), "utf8")) as { name: string };
    const exports = (await import(name).catch((error: unknown) => {
      throw new Error(`${name} exports a configSchema: add it to test/config-schemas/package.json's devDependencies`, { cause: error });
    })) as { configSchema: z.core.$ZodType };
    found.push({ name, configSchema: exports.configSchema });
  }
  return found;
}

const HOSTILE_EXAMPLES: readonly unknown[] = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -1,
  -0.5,
  0,
  0.5,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53,
  Number.MAX_VALUE,
  "100",
  "",
  "x".repeat(100_000),
  true,
  {},
  [],
];

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_EXAMPLES),
  fc.double(),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.string(),
  fc.constantFrom(null, false, () => 1),
);

/** Asserts, for hostile values of `option`, that `schema` refuses each naming the option, unless the runtime can honour it. */
function checkOption(module: string, schema: z.core.$ZodType, option: SchemaOption): void {
  const name = option.path.join(".");
  fc.assert(
    fc.property(hostileValue, (value) => {
      let error: unknown;
      try {
        parseConfig(module, schema, configWith(option, value));
      } catch (caught) {
        error = caught;
      }
      if (error === undefined) {
        expect(
          canHonour(option, value),
          `${module} accepted ${name} = ${String(value).slice(0, 40)}, which the runtime cannot honour`,
        ).toBe(true);
        return;
      }
      expect(error).toBeInstanceOf(ContextConfigError);
      const named = (error as ContextConfigError).issues.some((issue) => issue.path === name || issue.path.startsWith(`${name}.`));
      // Refused for another key (a required one left out) is fine only when this value itself is one the runtime can use.
      if (!named)
        expect(canHonour(option, value), `${module} refused ${name} = ${String(value).slice(0, 40)} without naming ${name}`).toBe(true);
    }),
    { numRuns: 40, examples: HOSTILE_EXAMPLES.map((value) => [value]) },
  );
}

const modules = await modulesWithConfigSchemas();
const schemas: { name: string; schema: z.core.$ZodType }[] = [
  { name: "@ctxkit/core", schema: contextConfigSchema },
  ...modules.map(({ name, configSchema }) => ({ name, schema: configSchema })),
  ...Object.entries(BUILT_IN_STRATEGY_SCHEMAS).map(([name, schema]) => ({ name: `strategy ${name}`, schema })),
];

describe("every config schema", () => {
  it("should find the modules' schemas and their options", () => {
    expect(modules.map((module) => module.name)).toEqual(
      expect.arrayContaining(["@ctxkit/context-simple", "@ctxkit/context-postgres", "@ctxkit/context-redis", "@ctxkit/strategy-summary"]),
    );
    for (const { name, schema } of schemas) expect(schemaOptions(schema).length, `${name} has no options found`).toBeGreaterThan(0);
  });

  for (const { name, schema } of schemas) {
    it(`should refuse, naming the option, every value of ${name}'s options that the runtime cannot honour`, () => {
      for (const option of schemaOptions(schema)) checkOption(name, schema, option);
    });
  }
});
