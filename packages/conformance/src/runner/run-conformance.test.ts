import { describe, expect, it } from "vitest";
import { createSimpleContext, type SimpleContextManager } from "../../../context-simple/src/index.js";
import * as contextSimple from "../../../context-simple/src/index.js";
import type { ProgressEvent } from "./run-conformance.js";
import { runConformance } from "./run-conformance.js";

const statusOf = (report: Awaited<ReturnType<typeof runConformance>>, name: string) => report.checks.find((check) => check.name === name);

describe("runConformance", () => {
  describe("capability flags", () => {
    it("should skip, and say so, what the options disable", async () => {
      const report = await runConformance(contextSimple, { runs: 3, seed: 1, capabilities: { compact: false, usage: false } });
      expect(statusOf(report, "compact")).toMatchObject({ status: "skip", reason: "disabled by options.capabilities.compact" });
      expect(statusOf(report, "usage")).toMatchObject({ status: "skip", reason: "disabled by options.capabilities.usage" });
      expect(report.capabilities).toMatchObject({ compact: false, usage: false, recoverOverflow: true });
      expect(report.passed).toBe(true);
    });

    it("should fail a capability that is declared but missing", async () => {
      const factory = () => {
        const { addMessage, getMessagesForRequest, getMessages, setMessages, clear } = createSimpleContext();
        return { addMessage, getMessagesForRequest, getMessages, setMessages, clear };
      };
      const report = await runConformance(factory, { runs: 3, seed: 1, only: ["compact"], capabilities: { compact: true } });
      expect(statusOf(report, "compact")).toMatchObject({ status: "fail", reason: "declared, but the manager has no compact()" });
    });
  });

  describe("timeoutMs", () => {
    // A hung request used to cost the timeout on every run, shrink and property: minutes before any report.
    it("should stop at the run that hangs, name the call that never returned, and report the rest as not run (regression)", async () => {
      const hanging = () => {
        const { addMessage, getMessages, setMessages, clear } = createSimpleContext();
        return { addMessage, getMessages, setMessages, clear, getMessagesForRequest: () => new Promise<never>(() => {}) };
      };
      const report = await runConformance(hanging, { runs: 3, seed: 1, timeoutMs: 200, only: ["pairing", "budget"] });
      expect(report.passed).toBe(false);
      expect(report.incomplete).toMatch(/^a run of pairing did not finish within 200 ms: getMessagesForRequest\(\) never returned\./);
      expect(statusOf(report, "pairing")).toMatchObject({ status: "fail", unfinished: report.incomplete });
      expect(statusOf(report, "budget")).toMatchObject({ status: "skip", reason: "not run: pairing did not finish" });
    });
  });

  describe("a plain factory", () => {
    it("should skip events without a subscribe option, and run them with one", async () => {
      const without = await runConformance(() => createSimpleContext(), { runs: 3, seed: 1, only: ["events"] });
      expect(statusOf(without, "events")?.status).toBe("skip");
      const subscribe = (manager: unknown, listener: (event: string, payload: unknown) => void) =>
        (manager as SimpleContextManager).addEventHandler((event, payload) => listener(event, payload));
      const heard = await runConformance(() => createSimpleContext(), { runs: 10, seed: 1, only: ["events"], subscribe });
      expect(statusOf(heard, "events")?.status).toBe("pass");
      expect(heard.kind).toBe("factory");
    });

    it("should skip prefix stability when it cannot tell compactions apart, without events or usage()", async () => {
      const report = await runConformance(() => createSimpleContext(), {
        runs: 3,
        seed: 1,
        only: ["prefix-stability"],
        capabilities: { usage: false },
      });
      expect(statusOf(report, "prefix-stability")).toMatchObject({
        status: "skip",
        reason: "needs events or usage() to tell when the manager compacted",
      });
    });

    it("should fail on a factory that returns no manager", async () => {
      const report = await runConformance(() => ({}) as never, { runs: 3, seed: 1, only: ["factory", "pairing"] });
      expect(report.checks.map((check) => [check.name, check.status])).toEqual([
        ["factory", "fail"],
        ["pairing", "fail"],
      ]);
    });
  });

  describe("seeds and progress", () => {
    it("should give the same report for the same seed", async () => {
      const run = () => runConformance(contextSimple, { runs: 20, seed: 99, only: ["pairing", "budget"] });
      const [first, second] = [await run(), await run()];
      expect(first.seed).toBe(99);
      expect(second.checks.map((check) => [check.name, check.status, check.runs])).toEqual(
        first.checks.map((check) => [check.name, check.status, check.runs]),
      );
    });

    it("should report the start, the capabilities, each run and each check's end", async () => {
      const events: ProgressEvent[] = [];
      await runConformance(contextSimple, { runs: 4, seed: 1, only: ["meta", "budget"], onProgress: (event) => events.push(event) });
      expect(events[0]).toMatchObject({ type: "start", subject: "context-simple", kind: "module", seed: 1, runs: 4 });
      expect(events.filter((event) => event.type === "run")).toHaveLength(4);
      expect(
        events.filter((event) => event.type === "check-end").map((event) => (event.type === "check-end" ? event.result.name : "")),
      ).toEqual(["meta", "budget"]);
    });
  });
});
