// The view judge lives in @ctxkit/cli's replay library, so `ctxkit replay` and the benchmarks judge views alike.
export { addTotals, emptyTotals, MessageFacts, ViewJudge, type ViewTotals } from "@ctxkit/cli/replay";
