// Runs the example: every span, then every metric, printed by OpenTelemetry's console exporters.
import { runExample } from "./run-example.js";

const run = await runExample();
console.log(`${run.historyLength} messages kept, ${run.lastViewLength} in the last view`);
