import { ContextStreamError } from "@ctxkit/core";
import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { responseAssembly } from "./response-assembly.js";

const message = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Done.", annotations: [], logprobs: [] }],
} as const;
const response = (output: unknown[]) => ({ id: "resp_1", object: "response", status: "completed", output }) as unknown as Response;
const event = (value: Record<string, unknown>) => ({ sequence_number: 0, ...value }) as unknown as ResponseStreamEvent;

describe("responseAssembly", () => {
  it("should keep the response of response.completed, with the output_text the SDK gives a non-streamed one", () => {
    const assembly = responseAssembly();
    assembly.add(event({ type: "response.created", response: response([]) }));
    assembly.add(event({ type: "response.output_item.done", output_index: 0, item: message }));
    assembly.add(event({ type: "response.completed", response: response([message]) }));
    expect(assembly.finish()).toEqual({ ...response([message]), output_text: "Done." });
  });

  it("should take the output from the finished items when response.completed leaves it out", () => {
    const assembly = responseAssembly();
    const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: "{}", status: "completed" };
    assembly.add(event({ type: "response.output_item.done", output_index: 1, item: message }));
    assembly.add(event({ type: "response.output_item.done", output_index: 0, item: call }));
    assembly.add(event({ type: "response.completed", response: response([]) }));
    expect(assembly.finish()!.output).toEqual([call, message]);
  });

  it("should keep an incomplete response, as a non-streamed request returns it", () => {
    const assembly = responseAssembly();
    assembly.add(event({ type: "response.incomplete", response: { ...response([message]), status: "incomplete" } }));
    expect(assembly.finish()).toMatchObject({ status: "incomplete" });
  });

  it("should call a stream without its closing event short", () => {
    const assembly = responseAssembly();
    assembly.add(event({ type: "response.created", response: response([]) }));
    expect(assembly.finish()).toBeUndefined();
  });

  it.each([
    ["an error event", event({ type: "error", code: "server_error", message: "boom", param: null })],
    [
      "response.failed",
      event({ type: "response.failed", response: { ...response([]), status: "failed", error: { code: "server_error", message: "boom" } } }),
    ],
  ])("should fail on %s, naming what the provider said", (_case, failure) => {
    expect(() => responseAssembly().add(failure)).toThrow(ContextStreamError);
    expect(() => responseAssembly().add(failure)).toThrow(/boom/);
  });
});
