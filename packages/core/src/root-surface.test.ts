// The root entry is for agent builders: its names are counted, so a new one has to displace one or go to the kit.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAX_ROOT_NAMES = 100;

/** Every name an entry file exports, values and types alike, read from its export statements. */
function exportedNames(file: URL): string[] {
  const source = ts.createSourceFile(file.pathname, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause === undefined || !ts.isNamedExports(statement.exportClause)) {
        throw new Error(`${file.pathname}: \`export *\` hides how many names the entry has; name each export.`);
      }
      names.push(...statement.exportClause.elements.map((element) => element.name.text));
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      const named = statement as ts.Statement & { name?: ts.Identifier };
      if (named.name !== undefined) names.push(named.name.text);
      if (ts.isVariableStatement(statement)) {
        names.push(...statement.declarationList.declarations.map((declaration) => declaration.name.getText(source)));
      }
    }
  }
  return names;
}

describe("@ctxkit/core's root entry", () => {
  const names = exportedNames(new URL("./index.ts", import.meta.url));

  it(`should export at most ${MAX_ROOT_NAMES} names (what module, strategy, store and adapter authors need goes to @ctxkit/core/kit)`, () => {
    expect(names.length, `the root exports ${names.length} names`).toBeGreaterThan(0);
    expect(names.length, `the root exports ${names.length} names: move what only authors need to kit.ts`).toBeLessThanOrEqual(
      MAX_ROOT_NAMES,
    );
  });

  it("should export each name once", () => {
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("should count every name the entry exports at run time", async () => {
    const entry = await import("./index.js");
    expect(Object.keys(entry).filter((name) => !names.includes(name))).toEqual([]);
  });
});
