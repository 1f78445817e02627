import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { AggregationTemporality, InMemoryMetricExporter } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { runExample } from "./run-example.js";

// The example shuts its providers down at the end, which would empty these exporters: keep what they got.
class KeptSpans extends InMemorySpanExporter {
  override shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
class KeptMetrics extends InMemoryMetricExporter {
  override shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

describe("the OpenTelemetry console example", () => {
  it("should export a span per view and per usage report, a compaction, and its metrics", async () => {
    const spanExporter = new KeptSpans();
    const metricExporter = new KeptMetrics(AggregationTemporality.CUMULATIVE);
    const run = await runExample({ spanExporter, metricExporter });
    // Six turns of a question, a call, its result and an answer, after the system message.
    expect(run.historyLength).toBe(1 + 6 * 4);
    expect(run.lastViewLength).toBeLessThan(run.historyLength);
    const spans = spanExporter.getFinishedSpans();
    expect(spans.filter((span) => span.name === "ctxkit.context.view")).toHaveLength(12);
    expect(spans.filter((span) => span.name === "ctxkit.context.report_usage")).toHaveLength(12);
    expect(spans.some((span) => span.attributes["ctxkit.compaction.reason"] === "threshold")).toBe(true);
    const names = metricExporter
      .getMetrics()
      .flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name)));
    expect(names).toEqual(
      expect.arrayContaining(["ctxkit.view.tokens", "ctxkit.view.cache_stable_share", "ctxkit.compactions", "ctxkit.compaction.duration"]),
    );
  });

  it("should print the spans and metrics on the console when run as a script", async () => {
    const { stdout } = await promisify(execFile)("pnpm", ["start"], { cwd: new URL("..", import.meta.url) });
    expect(stdout).toContain("name: 'ctxkit.context.view'");
    expect(stdout).toContain("'gen_ai.conversation.compacted': true");
    expect(stdout).toContain("name: 'ctxkit.compactions'");
    expect(stdout).toMatch(/25 messages kept, \d+ in the last view\n$/);
  });
});
