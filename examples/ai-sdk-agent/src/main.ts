// Runs the agent: with AI_GATEWAY_API_KEY set, on a real model through the AI Gateway; otherwise on a mock.
import { gateway } from "ai";
import { runAgent } from "./agent.js";
import { createMockModel } from "./mock-model.js";

const questions = ["What is in notes.md and todo.md?", "What changed recently?", "What should I do next?", "Summarize all of it."];
const isReal = process.env["AI_GATEWAY_API_KEY"] !== undefined;
const model = isReal ? gateway(process.env["CTXKIT_MODEL"] ?? "openai/gpt-4o-mini") : createMockModel();

const run = await runAgent(model, questions, 4_000);
run.answers.forEach((answer, index) => console.log(`> ${questions[index]}\n${answer}\n`));
console.log(
  `${isReal ? "real model" : "mock model"}: ${run.historyLength} messages kept, ${run.lastViewLength} in the last prompt, ${run.compactions} compactions`,
);
