// The OpenAI Agents JS item and session shapes, declared here because `@openai/agents` needs openai 7 and Node 22.
// They mirror `AgentInputItem` and `Session` of `@openai/agents-core` 0.20 field for field (the parts ctxkit
// converts), so a `CtxkitSession` is accepted wherever the SDK takes a `Session`.

interface ItemBase {
  id?: string;
  providerData?: Record<string, unknown>;
}

export type AgentUserContent =
  | { type: "input_text"; text: string; providerData?: Record<string, unknown> }
  | { type: "input_image"; image?: string | { id: string }; detail?: string; providerData?: Record<string, unknown> }
  | { type: "input_file"; file?: string | { id: string } | { url: string }; filename?: string; providerData?: Record<string, unknown> }
  | {
      type: "audio";
      audio: string | { id: string };
      format?: string | null;
      transcript?: string | null;
      providerData?: Record<string, unknown>;
    };

export type AgentAssistantContent =
  | { type: "output_text"; text: string; providerData?: Record<string, unknown> }
  | { type: "refusal"; refusal: string; providerData?: Record<string, unknown> }
  | {
      type: "audio";
      audio: string | { id: string };
      format?: string | null;
      transcript?: string | null;
      providerData?: Record<string, unknown>;
    }
  | { type: "image"; image: string; providerData?: Record<string, unknown> };

export interface AgentUserMessageItem extends ItemBase {
  type?: "message";
  role: "user";
  content: string | AgentUserContent[];
}

export interface AgentSystemMessageItem extends ItemBase {
  type?: "message";
  role: "system";
  content: string;
}

export interface AgentAssistantMessageItem extends ItemBase {
  type?: "message";
  role: "assistant";
  status: "in_progress" | "completed" | "incomplete";
  content: AgentAssistantContent[];
}

export interface AgentFunctionCallItem extends ItemBase {
  type: "function_call";
  callId: string;
  name: string;
  arguments: string;
  namespace?: string;
  status?: "in_progress" | "completed" | "incomplete";
}

export type AgentToolOutput =
  | string
  | { type: "text"; text: string; providerData?: Record<string, unknown> }
  | Extract<AgentUserContent, { type: "input_text" | "input_image" | "input_file" }>[];

export interface AgentFunctionCallResultItem extends ItemBase {
  type: "function_call_result";
  callId: string;
  name: string;
  namespace?: string;
  status: "in_progress" | "completed" | "incomplete";
  output: AgentToolOutput;
}

export interface AgentReasoningItem extends ItemBase {
  type: "reasoning";
  content: { type: "input_text"; text: string }[];
  rawContent?: { type: "reasoning_text"; text: string }[];
}

/** The items a `CtxkitSession` stores and returns: messages, function calls and results, reasoning. */
export type AgentInputItem =
  | AgentUserMessageItem
  | AgentSystemMessageItem
  | AgentAssistantMessageItem
  | AgentFunctionCallItem
  | AgentFunctionCallResultItem
  | AgentReasoningItem;

/** `Session` of `@openai/agents`: what `run(agent, input, { session })` calls. */
export interface AgentsSession {
  getSessionId(): Promise<string>;
  getItems(limit?: number): Promise<AgentInputItem[]>;
  addItems(items: AgentInputItem[]): Promise<void>;
  popItem(): Promise<AgentInputItem | undefined>;
  clearSession(): Promise<void>;
}
