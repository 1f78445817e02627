import { describeStrategy } from "@ctxkit/conformance/vitest";
import { keepRecent } from "./keep-recent-strategy.js";

describeStrategy("keep-recent", keepRecent());
describeStrategy("keep-recent keeping none", keepRecent({ keep: 0 }));
