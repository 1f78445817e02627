// A top-level await that never settles, with a timer alive so the process never runs out of work.
export const meta = { type: "context", name: "never-settles-at-top-level" };

await new Promise(() => {
  setInterval(() => {}, 1_000);
});

export function mount() {}
