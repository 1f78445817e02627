// The wiring: a tracer and a meter from the OpenTelemetry SDK, and a context manager instrumented with them.
import { createSimpleContext } from "@ctxkit/context-simple";
import { instrumentContextManager } from "@ctxkit/opentelemetry";
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { type LoopResult, runAgentLoop } from "./agent-loop.js";

export interface ExampleOptions {
  spanExporter?: SpanExporter;
  metricExporter?: PushMetricExporter;
  turns?: number;
}

/** Runs the loop with every span and, at the end, every metric sent to the exporters (the console's by default). */
export async function runExample(options: ExampleOptions = {}): Promise<LoopResult> {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(options.spanExporter ?? new ConsoleSpanExporter())],
  });
  // Metrics are exported once, when the provider shuts down at the end of the run.
  const reader = new PeriodicExportingMetricReader({
    exporter: options.metricExporter ?? new ConsoleMetricExporter(),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });

  const context = instrumentContextManager(createSimpleContext({ tokenizer: "estimate" }), {
    tracer: tracerProvider.getTracer("opentelemetry-console-example"),
    meter: meterProvider.getMeter("opentelemetry-console-example"),
    attributes: { "agent.name": "notes-reader" },
  });
  try {
    return await runAgentLoop(context, options.turns ?? 6, 2_000);
  } finally {
    await context.close();
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  }
}
