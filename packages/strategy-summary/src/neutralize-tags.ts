// Keeps text that came from a conversation (tool outputs, model replies) from posing as the summary's own markup.

/** Every tag the summary strategy writes, in the transcript it sends or in the summary it shows. */
const OWN_TAG = /<(\/?)(summary|previous-summary|conversation|message|tool-call|read-files|modified-files)(?=[\s/>]|$)/gi;

/**
 * Escapes the opening `<` of every tag the strategy writes itself (`</summary>` becomes `&lt;/summary>`),
 * so a tool output can neither close a summary nor open a turn of its own. Other text is left as it is.
 */
export function neutralizeTags(text: string): string {
  return text.replace(OWN_TAG, "&lt;$1$2");
}

/** An attribute value inside the strategy's own tags: quotes and angle brackets escaped. */
export function escapeAttribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\n", " ");
}
