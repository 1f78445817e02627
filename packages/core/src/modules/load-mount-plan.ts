// Reads a mount plan from where an operator keeps it: the CTXKIT_MOUNT_PLAN variable or a JSON file, so memory policy changes per deployment without code.
import { ContextConfigError } from "../errors.js";
import { mountPlanSchema, type MountPlan } from "./mount-plan.js";
import { currentDirectory, nodeBuiltins } from "./node-builtins.js";
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
  const { file, env = globalThis.process?.env ?? {}, cwd = currentDirectory() } = options;
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

/** The largest plan file read: a plan is a few kilobytes, and a bigger file is not one. */
export const MAX_MOUNT_PLAN_BYTES = 1024 * 1024;

async function readPlanFile(file: string, cwd: string, source: string): Promise<MountPlan> {
  const { fs, fsPromises, path: paths } = nodeBuiltins("loadMountPlan");
  const { constants } = fs;
  const path = paths.resolve(cwd, file);
  const refuse = (message: string) => new ContextConfigError(source, [{ path: "", message }]);
  let handle: Awaited<ReturnType<typeof fsPromises.open>>;
  try {
    // Non-blocking, so a FIFO opens at once instead of waiting for a writer; its type is then refused below.
    handle = await fsPromises.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw refuse(`cannot read the file (${code}); check the path`);
  }
  try {
    // The type of what was opened, not of what the path named a moment before, so nothing can swap it in between.
    const stats = await handle.stat();
    if (!stats.isFile())
      throw refuse(`${path} is not a regular file (${describeFileType(stats)}); point it at a JSON file holding the plan`);
    if (stats.size > MAX_MOUNT_PLAN_BYTES)
      throw refuse(`${path} is ${stats.size} bytes, over the ${MAX_MOUNT_PLAN_BYTES}-byte limit of a plan file; is it the right file?`);
    // At most one byte over the limit, in case the file grew since it was opened.
    const buffer = new Uint8Array(MAX_MOUNT_PLAN_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_MOUNT_PLAN_BYTES)
      throw refuse(`${path} grew over the ${MAX_MOUNT_PLAN_BYTES}-byte limit of a plan file while it was read`);
    return parsePlan(new TextDecoder().decode(buffer.subarray(0, length)), source);
  } catch (error) {
    if (error instanceof ContextConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw refuse(`cannot read the file (${code}); check the path`);
  } finally {
    await handle.close();
  }
}

function describeFileType(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a file";
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
