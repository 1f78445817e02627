// A deterministic ~N-character sample of what agents exchange: prose, code, JSON, some non-English.
import { createRandom } from "../sessions/random.js";

const words = (
  "the a to of and in is that for it with as on be this by are from or have an not at can will your " +
  "context message token budget model agent tool result file function error value request response user " +
  "system history summary window cache stream session output input test build run change update return " +
  "should would could first last every never always because before after while until between through"
).split(" ");
const identifiers = ["messages", "tokenBudget", "counter", "result", "options", "view", "entry", "index", "total", "config"];
const foreign = [
  "Ça marche très bien, merci beaucoup.",
  "Die Größe der Nachricht überschreitet das Budget.",
  "上下文窗口已满，正在压缩较早的消息。",
  "ツールの結果を要約しました。",
  "요청이 완료되었습니다.",
  "Готово: 42 файла обновлено.",
  "Deployed 🚀 — all checks ✅",
];

export function generateMixedText(targetLength: number, seed = 20_240_601): string {
  const random = createRandom(seed);
  const pick = <Item>(items: readonly Item[]): Item => items[Math.floor(random() * items.length)] as Item;
  const sentence = (): string => {
    const picked = Array.from({ length: 6 + Math.floor(random() * 14) }, () => pick(words)).join(" ");
    return `${picked.charAt(0).toUpperCase()}${picked.slice(1)}${pick([".", ".", ".", "?", "!", ":"])}`;
  };
  const code = (): string => {
    const name = pick(identifiers);
    const other = pick(identifiers);
    return [
      "```ts",
      `export function ${name}Of(${other}: readonly string[], limit = ${Math.floor(random() * 1000)}): number {`,
      `  let total = 0;`,
      `  for (const item of ${other}) total += item.length; // ${sentence()}`,
      `  return Math.min(total, limit);`,
      "}",
      "```",
    ].join("\n");
  };
  const json = (): string =>
    JSON.stringify({
      id: `call_${Math.floor(random() * 1e12).toString(36)}`,
      name: pick(identifiers),
      arguments: { path: `src/${pick(identifiers)}/${pick(identifiers)}.ts`, line: Math.floor(random() * 500), force: random() < 0.5 },
      output: sentence(),
    });
  const blocks: string[] = [];
  let length = 0;
  while (length < targetLength) {
    const roll = random();
    const block =
      roll < 0.55
        ? Array.from({ length: 2 + Math.floor(random() * 5) }, sentence).join(" ")
        : roll < 0.75
          ? code()
          : roll < 0.93
            ? json()
            : pick(foreign);
    blocks.push(block);
    length += block.length + 2;
  }
  return blocks.join("\n\n");
}
