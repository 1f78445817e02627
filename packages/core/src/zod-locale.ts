// Core builds its schemas with zod's functional API (`zod/mini`), which loads in a fraction of the classic API's
// time. That API reports every issue as "Invalid input" until a locale is set, where the classic API sets English
// with its first schema; core does the same before it parses, unless the process already chose a locale.
import { en } from "zod/locales";
import * as z from "zod/mini";

/** Sets zod's English issue messages when no locale is set yet: zod keeps one config for every copy in the process. */
export function useEnglishIssueMessages(): void {
  if (z.config().localeError === undefined) z.config(en());
}
