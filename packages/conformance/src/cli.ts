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
import { CONFORMANCE_PROPERTIES } from "./properties/all-properties.js";
import { summarizeChecks, type CheckResult, type ConformanceReport } from "./runner/report.js";
import { createSeed, DEFAULT_RUNS, DEFAULT_TIMEOUT_MS, runConformance } from "./runner/run-conformance.js";
import { ConformanceTimeoutError, withStepTimeout } from "./runner/step-timeout.js";
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

/**
 * A report for a module that could not even be loaded: a failed check named `load`, and every selected
 * property skipped as not run, so the report still gives each one a verdict and says why.
 */
function loadFailureReport(specifier: string, error: unknown, settings: CliSettings, seed: number, runs: number): ConformanceReport {
  const reason = error instanceof ConformanceTimeoutError ? error.message : describeError(error);
  const incomplete = `the module did not load: ${reason}`;
  const properties = CONFORMANCE_PROPERTIES.filter((property) => settings.only === undefined || settings.only.includes(property.name));
  const checks: CheckResult[] = [
    {
      name: "load",
      kind: "structural",
      description: "The module can be imported and has the module shape.",
      status: "fail",
      durationMs: 0,
      reason,
    },
    ...properties.map(
      (property): CheckResult => ({
        name: property.name,
        kind: "property",
        description: property.invariant,
        status: "skip",
        durationMs: 0,
        reason: "not run: the module did not load",
      }),
    ),
  ];
  return {
    subject: specifier,
    kind: "module",
    seed,
    runs,
    capabilities: { compact: false, recoverOverflow: false, usage: false, events: false },
    checks,
    passed: false,
    counts: summarizeChecks(checks),
    incomplete,
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
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let module;
  try {
    // An import can hang (a top-level await that never settles): it is bounded like every other step.
    const loaded = await withStepTimeout(loadModule(specifier, { type: "context", cwd }), { step: "importing the module", timeoutMs });
    module = withStrategyModules(loaded, cwd);
  } catch (error) {
    const report = loadFailureReport(argument, error, settings, seed, runs);
    if (!settings.json)
      stdout.write(
        `${formatHeader(report)}\n\n${report.checks.map((check) => formatCheckLine(check, { color })).join("\n")}\n${formatSummary(report, { color })}\n`,
      );
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

/**
 * Runs the CLI; resolves to the exit code: 0 all passed, 1 a finding or an incomplete run, 2 a usage
 * error. Resolves once every report is written, even when a module hangs: each step is bounded.
 */
export async function main(
  argv: readonly string[],
  environment: CliEnvironment = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  return (await runCommand(argv, environment)).code;
}

interface CommandOutcome {
  readonly code: number;
  /** A step outran its bound somewhere: work the module started may still be running, abandoned. */
  readonly isIncomplete: boolean;
}

async function runCommand(argv: readonly string[], environment: CliEnvironment): Promise<CommandOutcome> {
  const code = (value: number): CommandOutcome => ({ code: value, isIncomplete: false });
  let settings: CliSettings;
  try {
    settings = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    environment.stderr.write(`ctxkit-conformance: ${error.message}\n\n${USAGE}\n`);
    return code(2);
  }
  if (settings.help) {
    environment.stdout.write(`${USAGE}\n`);
    return code(0);
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
      return code(2);
    }
  }
  if (settings.json) resolved.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  return {
    code: reports.every((report) => report.passed) ? 0 : 1,
    isIncomplete: reports.some((report) => report.incomplete !== undefined),
  };
}

/** How long a finished run may take to wind down (sockets closing, say) before what holds it open is a finding. */
const EXIT_GRACE_MS = 2_000;

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

function countResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** What keeps the event loop alive beyond what the process held at the start (its own stdio), by kind: "1 TCPServerWrap". */
function describeOpenHandles(baseline: ReadonlyMap<string, number>): string {
  const extra = [...countResources()]
    .map(([kind, count]) => [kind, count - (baseline.get(kind) ?? 0)] as const)
    .filter(([, count]) => count > 0);
  return extra.map(([kind, count]) => `${count} ${kind}`).join(", ") || "something the runtime does not name";
}

/**
 * The command as a process: runs it, writes everything, and exits by itself with the exit code.
 *
 * Why a timer and `process.exit` rather than a child process or worker per module: every hang a module
 * can cause here (a top-level await or a mount() that never settles, a request that never answers) is a
 * promise that never settles, not a blocked thread, so the event loop stays free and each step's timer
 * fires on time. What such a module leaves behind (a pending import, a timer it started, a server) can be
 * abandoned by exiting once the report is out, with no second copy of the kit to load per module, and the
 * module's config functions and errors never cross a process boundary. Only a module that blocks the
 * thread itself (a synchronous endless loop) would defeat this, and no bound inside one process can stop that.
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  // The streams are created on first use; with them, this is what the process holds before any module loads.
  const baseline = process.stdout.writable && process.stderr.writable ? countResources() : new Map<string, number>();
  let outcome: CommandOutcome;
  try {
    outcome = await runCommand(argv, { stdout: process.stdout, stderr: process.stderr });
  } catch (error) {
    process.stderr.write(`ctxkit-conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    outcome = { code: 1, isIncomplete: false };
  }
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  // What a step left running when it outran its bound can never finish: there is nothing to wait for.
  if (outcome.isIncomplete) process.exit(outcome.code);
  process.exitCode = outcome.code;
  // A module that keeps a handle open after its cleanup (a server, an interval) would keep this process,
  // and any host that mounts it, alive forever. Unreferenced, this timer fires only if something else holds on.
  setTimeout(() => {
    process.stderr.write(
      `ctxkit-conformance: the report is complete, but ${EXIT_GRACE_MS} ms later the module still holds ${describeOpenHandles(baseline)} open, ` +
        `which would keep any process that mounts it from exiting. Close what mount() opens in the cleanup it returns ` +
        `(or unref it). Exit code 1.\n`,
    );
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
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

if (isEntryPoint()) void runCli(process.argv.slice(2));
