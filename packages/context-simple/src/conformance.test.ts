import { describeContextManager } from "@ctxkit/conformance/vitest";
import * as contextSimple from "./index.js";

describeContextManager("context-simple", contextSimple);
