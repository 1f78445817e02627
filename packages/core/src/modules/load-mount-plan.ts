// Reads a mount plan from where an operator keeps it: the CTXKIT_MOUNT_PLAN variable or a JSON file, so memory policy changes per deployment without code.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ContextConfigError } from "../errors.js";
import { mountPlanSchema, type MountPlan } from "./mount-plan.js";
import { parseConfig } from "./parse-config.js";

/** The variable `loadMountPlan` reads: the plan's JSON, or the path of a JSON file holding it. */
export const MOUNT_PLAN_VARIABLE = "CTXKIT_MOUNT_PLAN";

export interface LoadMountPlanOptions {
  /** A JSON file holding the plan, resolved against `cwd`; used when the variable is not set. */
  file?: string;
  /** Where the variable is read. Defaults to `process.env`; pass `{}` to ignore the environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Defaults to `process.cwd()`. */
  cwd?: string;
}

/**
 * The validated plan from `env.CTXKIT_MOUNT_PLAN` when it is set (it overrides the file, so one
 * deployment can differ from the checked-in default), else from `file`. Plans are JSON; YAML is not
 * read, to keep the core free of a parser dependency. Every failure is a `ContextConfigError` whose
 * module names the source (`mount plan (CTXKIT_MOUNT_PLAN)`, `mount plan (plans/prod.json)`).
 */
export async function loadMountPlan(options: LoadMountPlanOptions = {}): Promise<MountPlan> {
  const { file, env = process.env, cwd = process.cwd() } = options;
  const variable = env[MOUNT_PLAN_VARIABLE]?.trim();
  if (variable !== undefined && variable !== "") {
    if (variable.startsWith("{")) return parsePlan(variable, `mount plan (${MOUNT_PLAN_VARIABLE})`);
    return readPlanFile(variable, cwd, `mount plan (${MOUNT_PLAN_VARIABLE} → ${variable})`);
  }
  if (file === undefined) {
    throw new ContextConfigError("mount plan", [
      { path: MOUNT_PLAN_VARIABLE, message: "no plan: set the variable to the plan's JSON or a file path, or pass { file }" },
    ]);
  }
  return readPlanFile(file, cwd, `mount plan (${file})`);
}

async function readPlanFile(file: string, cwd: string, source: string): Promise<MountPlan> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new ContextConfigError(source, [{ path: "", message: `cannot read the file (${code}); check the path` }]);
  }
  return parsePlan(text, source);
}

function parsePlan(text: string, source: string): MountPlan {
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (error) {
    throw new ContextConfigError(source, [{ path: "", message: `not valid JSON: ${(error as Error).message}` }]);
  }
  return parseConfig(source, mountPlanSchema, plan);
}
