// The page as text: the data embedded so no message can break out of its script element, and nothing fetched.
import { describe, expect, it } from "vitest";
import { CATEGORY_LIST, type InspectData, TEXT_LIMIT } from "./inspect-data.js";
import { renderInspectPage, scriptJson } from "./inspect-page.js";

const hostile = '</script><script>document.title="owned"</script><!-- \u2028 </SCRIPT >';

function pageWith(text: string): InspectData {
  return {
    title: "ctxkit inspect: </title><b>bold</b>",
    source: { kind: "transcript", label: "demo.jsonl", format: "jsonl" },
    configuration: "default",
    budget: 1_000,
    categories: CATEGORY_LIST,
    requests: [],
    compactions: [],
    compactionsNote: "none",
    messages: [{ index: 0, role: "user", text, tokens: 10, viewTokens: 10, form: "verbatim", why: "current-turn" }],
    textLimit: TEXT_LIMIT,
  };
}

/** The text of the page's JSON data element, as the browser reads it: up to the first `</script`, any case. */
function embeddedJson(html: string): string {
  const start = html.indexOf('<script type="application/json" id="inspect-data">');
  const open = html.indexOf(">", start) + 1;
  return html.slice(open, html.slice(open).search(/<\/script/i) + open);
}

describe("renderInspectPage", () => {
  it("should embed a message holding </script> and <!-- so that it reads back whole and ends no element early", () => {
    const html = renderInspectPage(pageWith(hostile));
    // Two script elements: the data and the page's script; the message's own closing tags are escaped.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain("<!-- ");
    const data = JSON.parse(embeddedJson(html)) as InspectData;
    expect(data.messages[0]!.text).toBe(hostile);
  });

  it("should escape the title in the head and the heading", () => {
    const html = renderInspectPage(pageWith("hello"));
    expect(html).toContain("<title>ctxkit inspect: &lt;/title&gt;&lt;b&gt;bold&lt;/b&gt;</title>");
    expect(html).not.toContain("<b>bold</b>");
  });

  it("should inline its styles and script and forbid every fetch with its Content-Security-Policy", () => {
    const html = renderInspectPage(pageWith("hello"));
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
    // The one address in the page is the SVG namespace, which names and loads nothing.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+rel="stylesheet"|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});

describe("scriptJson", () => {
  it("should leave JSON that parses to the same value", () => {
    const value = { text: hostile, nested: ["<", ">", "&"] };
    expect(JSON.parse(scriptJson(JSON.stringify(value)))).toEqual(value);
  });
});
