// The names of the tools ctxkit gives the agent, shared by the definitions and the strategies that mention them.
export const PIN_MESSAGE = "pin_message";
export const UNPIN_MESSAGE = "unpin_message";
export const RETRIEVE_TOOL_RESULT = "retrieve_tool_result";
