// A vitest reporter, added beside the default one by `pnpm test` (scripts/test.mjs): writes every skipped test, with
// its file, its suites' and its own titles and any note a runtime skip gave (`context.skip(note)`), to the JSON file
// CTXKIT_SKIP_REPORT names. Vitest's own JSON report leaves the note out.
import { writeFileSync } from "node:fs";

export default class SkipReporter {
  onTestRunEnd(testModules) {
    const file = process.env.CTXKIT_SKIP_REPORT;
    if (!file) return;
    const skipped = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const result = test.result();
        if (result.state !== "skipped") continue;
        const titles = [test.name];
        for (let parent = test.parent; parent?.type === "suite"; parent = parent.parent) titles.unshift(parent.name);
        skipped.push({ file: testModule.moduleId, titles, todo: test.options.mode === "todo", note: result.note });
      }
    }
    writeFileSync(file, JSON.stringify(skipped));
  }
}
