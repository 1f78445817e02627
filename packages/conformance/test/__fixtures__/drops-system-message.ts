// A loadable module file (meta, configSchema, mount) for the CLI tests: drops system messages from views.
import { dropsSystemMessage } from "./broken-modules.js";

export const { meta, configSchema, mount } = dropsSystemMessage;
