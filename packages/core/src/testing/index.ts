// @ctxkit/core/testing: test doubles for orchestrator and module authors.
export { MockContextManager, type MockContextManagerCall } from "./mock-context-manager.js";
export { createEventRecorder, type EventRecorder, type RecordedEvent } from "./event-recorder.js";
export { readMessagesFile } from "./read-messages-file.js";
export {
  systemMessage,
  userMessage,
  assistantMessage,
  toolCallMessage,
  toolResultMessage,
  sampleTurn,
} from "./message-builders.js";
