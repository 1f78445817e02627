import { describe, expect, it } from "vitest";
import { createSessionSettings } from "../subject/session-settings.js";
import { resolveDeclaredOptions } from "./module-declaration.js";
import { parseArguments } from "./parse-arguments.js";

describe("resolveDeclaredOptions", () => {
  it("should take what the module's conformance export declares, config function included", () => {
    const config = () => ({ strategies: [] });
    const module = { conformance: { restart: true, summarizer: true, config, capabilities: { usage: false } } };
    expect(resolveDeclaredOptions(module, parseArguments(["m"]))).toEqual({
      restart: true,
      summarizer: true,
      config,
      capabilities: { usage: false },
    });
  });

  it("should let flags win, and add the kit's sessionId to a JSON config under --restart", () => {
    const module = { conformance: { restart: false, capabilities: { usage: false, events: true } } };
    const options = resolveDeclaredOptions(
      module,
      parseArguments(["m", "--restart", "--capabilities=usage", "--config", '{"storagePath":"x"}']),
    );
    expect(options.restart).toBe(true);
    expect(options.capabilities).toEqual({ usage: true, events: true });
    const settings = createSessionSettings();
    expect((options.config as (settings: unknown) => unknown)(settings)).toEqual({ storagePath: "x", sessionId: settings.sessionId });
  });

  it("should declare nothing for a module without a conformance export and no flags", () => {
    expect(resolveDeclaredOptions({}, parseArguments(["m"]))).toEqual({});
  });
});
