// A module author's conformance test file: the broken module, or context-simple, by REPLAY_SUBJECT.
import * as contextSimple from "../../../../context-simple/src/index.js";
import { describeContextManager } from "../../../src/vitest.js";
import { compactsSilently } from "../broken-modules.js";

describeContextManager("the replayed module", process.env["REPLAY_SUBJECT"] === "broken" ? compactsSilently : contextSimple);
