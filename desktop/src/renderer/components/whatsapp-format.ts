/**
 * WhatsApp's text formatting, parsed as WhatsApp does: *bold*, _italic_, ~strike~ and ```monospace```.
 * A marker only opens after the start, a space or punctuation and only closes before the end, a space or
 * punctuation, and the text inside neither starts nor ends with a space ("2 * 3 * 4" stays as typed).
 * Inline markers do not cross lines; monospace may, and nothing inside it is formatted.
 */
export type FormatNode = string | { kind: 'bold' | 'italic' | 'strike' | 'mono'; children: FormatNode[] };

const INLINE: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
/** What may stand right outside a marker. */
const EDGE = /[\s.,;:!?()[\]{}"'«»“”‘’\-*_~]/;

const opensAt = (text: string, i: number) => (i === 0 || EDGE.test(text[i - 1])) && i + 1 < text.length && !/\s/.test(text[i + 1]);
const closesAt = (text: string, i: number) => !/\s/.test(text[i - 1]) && (i + 1 === text.length || EDGE.test(text[i + 1]));

const parseInline = (text: string): FormatNode[] => {
  const out: FormatNode[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const kind = INLINE[text[i]];
    if (kind && opensAt(text, i)) {
      const marker = text[i];
      let end = -1;
      for (let j = i + 2; j < text.length && text[j] !== '\n'; j++) {
        if (text[j] === marker && closesAt(text, j)) {
          end = j;
          break;
        }
      }
      if (end > i + 1) {
        if (plain) out.push(plain);
        plain = '';
        out.push({ kind, children: parseInline(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    plain += text[i];
    i += 1;
  }
  if (plain) out.push(plain);
  return out;
};

export const parseWhatsApp = (text: string): FormatNode[] => {
  const out: FormatNode[] = [];
  const mono = /```([\s\S]+?)```/g;
  let last = 0;
  for (const match of text.matchAll(mono)) {
    out.push(...parseInline(text.slice(last, match.index)));
    out.push({ kind: 'mono', children: [match[1]] });
    last = match.index + match[0].length;
  }
  out.push(...parseInline(text.slice(last)));
  return out;
};

/** The text without its formatting markers (for a title, a notification, a plain preview). */
export const stripWhatsApp = (text: string): string => {
  const flat = (nodes: FormatNode[]): string => nodes.map((n) => (typeof n === 'string' ? n : flat(n.children))).join('');
  return flat(parseWhatsApp(text));
};

/** A list preview is one line: line breaks and runs of spaces become one space. */
export const previewLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
