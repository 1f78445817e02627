#!/usr/bin/env node
// ctxkit-conformance <module…>: load each context module, run the conformance kit, print the report.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ContextArgumentError } from "@ctxkit/core";
import { loadModule } from "@ctxkit/core/kit";
import { createProgressLine, type TextOutput } from "./cli/progress.js";
import { findMissingConfig, formatMissingConfig } from "./cli/missing-config.js";
import { resolveDeclaredOptions } from "./cli/module-declaration.js";
import { parseArguments, UsageError, USAGE, type CliSettings } from "./cli/parse-arguments.js";
import { formatCapabilities, formatCheckLine, formatHeader, formatSummary } from "./runner/format-report.js";
import type { ConformanceReport } from "./runner/report.js";
import { createSeed, DEFAULT_RUNS, runConformance } from "./runner/run-conformance.js";
import { describeError } from "./checks/violation.js";
import { withStrategyModules } from "./subject/with-strategy-modules.js";

export interface CliEnvironment {
  readonly stdout: TextOutput;
  readonly stderr: TextOutput;
  /** Where relative paths and installed packages are looked up. Default `process.cwd()`. */
  readonly cwd?: string;
}

/** `packages/context-simple` names a folder here, not a package: make paths that exist explicit. */
function toSpecifier(argument: string, cwd: string): string {
  const candidate = path.resolve(cwd, argument);
  return !argument.startsWith("@") && existsSync(candidate) ? candidate : argument;
}

/** A report for a module that could not even be loaded: one failed check, named `load`. */
function loadFailureReport(specifier: string, error: unknown, seed: number, runs: number): ConformanceReport {
  return {
    subject: specifier,
    kind: "module",
    seed,
    runs,
    capabilities: { compact: false, recoverOverflow: false, usage: false, events: false },
    checks: [
      {
        name: "load",
        kind: "structural",
        description: "The module can be imported and has the module shape.",
        status: "fail",
        durationMs: 0,
        reason: describeError(error),
      },
    ],
    passed: false,
    counts: { pass: 0, fail: 1, skip: 0 },
    durationMs: 0,
  };
}

async function checkModule(
  argument: string,
  settings: CliSettings,
  environment: Required<CliEnvironment>,
  seed: number,
): Promise<ConformanceReport> {
  const { stdout, stderr, cwd } = environment;
  const color = settings.color && stdout.isTTY === true && process.env["NO_COLOR"] === undefined;
  const specifier = toSpecifier(argument, cwd);
  const runs = settings.runs ?? DEFAULT_RUNS;
  let module;
  try {
    module = withStrategyModules(await loadModule(specifier, { type: "context", cwd }), cwd);
  } catch (error) {
    const report = loadFailureReport(argument, error, seed, runs);
    if (!settings.json)
      stdout.write(`${formatHeader(report)}\n\n${formatCheckLine(report.checks[0]!, { color })}\n${formatSummary(report, { color })}\n`);
    return report;
  }
  const progress = createProgressLine(stderr);
  const report = await runConformance(module, {
    runs,
    seed,
    ...(settings.path === undefined ? {} : { path: settings.path }),
    ...(settings.only === undefined ? {} : { only: settings.only }),
    ...(settings.regime === undefined ? {} : { regime: settings.regime }),
    ...resolveDeclaredOptions(module, settings),
    onProgress: (event) => {
      progress.update(event);
      if (settings.json) return;
      if (event.type === "start") stdout.write(`${formatHeader(event)}\n\n`);
      else if (event.type === "capabilities") stdout.write(`\n${formatCapabilities(event.capabilities)}\n`);
      else if (event.type === "check-end") stdout.write(`${formatCheckLine(event.result, { color })}\n`);
    },
  });
  progress.clear();
  if (!settings.json) stdout.write(`${formatSummary(report, { color, replayCommand: `ctxkit-conformance ${argument}` })}\n`);
  // Failed checks alone do not say why a module never mounted: a required key missing from the config.
  const missing = report.passed ? undefined : findMissingConfig(module.configSchema, settings.config ?? {});
  if (missing !== undefined) (settings.json ? stderr : stdout).write(`\n${formatMissingConfig(module.meta.name, argument, missing)}\n`);
  return report;
}

/** Runs the CLI; resolves to the exit code: 0 all passed, 1 a check failed, 2 a usage error. */
export async function main(
  argv: readonly string[],
  environment: CliEnvironment = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let settings: CliSettings;
  try {
    settings = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    environment.stderr.write(`ctxkit-conformance: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (settings.help) {
    environment.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const resolved = { cwd: process.cwd(), ...environment };
  // One seed for every module, printed in each header, so a whole run can be repeated.
  const seed = settings.seed ?? createSeed();
  const reports: ConformanceReport[] = [];
  for (const [index, argument] of settings.modules.entries()) {
    if (index > 0 && !settings.json) resolved.stdout.write("\n");
    try {
      reports.push(await checkModule(argument, settings, resolved, seed));
    } catch (error) {
      // runConformance rejects only what the command line asked for, such as an unknown --only name.
      if (!(error instanceof ContextArgumentError)) throw error;
      resolved.stderr.write(`ctxkit-conformance: ${error.message}\n`);
      return 2;
    }
  }
  if (settings.json) resolved.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  return reports.every((report) => report.passed) ? 0 : 1;
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`ctxkit-conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
