/** The chatbot's menus, in the company's language (pt, en or es); variables are filled when sent. */
type Lang = 'pt' | 'en' | 'es';

const pick = (lang: string): Lang => (lang === 'en' || lang === 'es' ? lang : 'pt');

const LABELS = {
  previous: { pt: 'Menu anterior', en: 'Previous menu', es: 'Menú anterior' },
  main: { pt: 'Menu inicial', en: 'Main menu', es: 'Menú principal' },
} as const;

/** Non-empty parts, a blank line between them. */
const paragraphs = (...parts: string[]) => parts.filter((p) => p.trim()).join('\n\n');

const line = (key: string, label: string) => `*[ ${key} ]* - ${label}`;

export const mainMenuLine = (lang: string) => line('#', LABELS.main[pick(lang)]);

/** Several queues: the connection's greeting, a blank line, one line per queue by its 1-based position. */
export const queueMenu = (greeting: string, queues: readonly { name: string }[]) =>
  paragraphs(greeting, queues.map((q, i) => line(String(i + 1), q.name)).join('\n'));

/** A queue's top level: its greeting, its options, and the way back to the queue menu. */
export const topOptionsMenu = (lang: string, greeting: string, options: readonly { option: string; title: string }[]) =>
  paragraphs(greeting, options.map((o) => line(o.option, o.title)).join('\n'), mainMenuLine(lang));

/** Inside an option: its message, its sub-options, "0" one level up and "#" the main menu. */
export const optionMenu = (lang: string, message: string, children: readonly { option: string; title: string }[]) =>
  paragraphs(
    message,
    children.map((o) => line(o.option, o.title)).join('\n'),
    [line('0', LABELS.previous[pick(lang)]), mainMenuLine(lang)].join('\n'),
  );

/** A chosen queue without options outside its hours: its text and the way back to the queue menu. */
export const queueClosed = (lang: string, outOfHoursMessage: string) => paragraphs(outOfHoursMessage, mainMenuLine(lang));

/**
 * Whether `body` was rendered from `template`: its placeholders ({{name}}, {{hora}}...) match anything,
 * so a text sent earlier with other values still counts as the same notice.
 */
export const renderedFrom = (template: string, body: string): boolean => {
  const pattern = template
    .trim()
    .split(/\{\{\s*[A-Za-z]+\s*\}\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(body.trim());
};
