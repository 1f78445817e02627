// A tracer and a meter whose output stays in memory, for tests to read back.
import type { Attributes } from "@opentelemetry/api";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface InMemoryTelemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly spans: () => ReadableSpan[];
  /** Collects now and returns every metric by name. */
  readonly metrics: () => Promise<Map<string, MetricData>>;
  readonly shutdown: () => Promise<void>;
}

export function createInMemoryTelemetry(): InMemoryTelemetry {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when flushed: the interval is longer than any test.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    metrics: async () => {
      metricExporter.reset();
      await reader.forceFlush();
      const byName = new Map<string, MetricData>();
      for (const resource of metricExporter.getMetrics()) {
        for (const scope of resource.scopeMetrics) for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/** A counter's value for each set of attributes, keyed by the value of `key` (or "" when absent). */
export function sumsBy(metric: MetricData | undefined, key: string): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const point of (metric?.dataPoints ?? []) as DataPoint<number>[]) sums[String(point.attributes[key] ?? "")] = point.value;
  return sums;
}

/** A histogram's count and sum for each set of attributes, keyed by the value of `key`. */
export function histogramsBy(metric: MetricData | undefined, key: string): Record<string, { count: number; sum: number }> {
  const histograms: Record<string, { count: number; sum: number }> = {};
  for (const point of (metric?.dataPoints ?? []) as DataPoint<Histogram>[]) {
    histograms[String(point.attributes[key] ?? "")] = { count: point.value.count, sum: point.value.sum ?? Number.NaN };
  }
  return histograms;
}

/** Every data point's attributes, to check what each carries. */
export function pointAttributes(metric: MetricData | undefined): Attributes[] {
  return (metric?.dataPoints ?? []).map((point) => point.attributes);
}
