/** What the engine itself says, in the company's language (pt, en or es); flows' own texts are the admin's. */
type Lang = 'pt' | 'en' | 'es';
const pick = (lang: string): Lang => (lang === 'en' || lang === 'es' ? lang : 'pt');

const INVALID_OPTION = {
  pt: 'Opção inválida. Responda com o número de uma das opções:',
  en: 'That is not one of the options. Please answer with the number of an option:',
  es: 'Opción inválida. Responda con el número de una de las opciones:',
} as const;

const INVALID_ANSWER = {
  pt: 'Não consegui entender. Responda com um texto, por favor.',
  en: 'I could not read that. Please answer with a text.',
  es: 'No pude entenderlo. Responda con un texto, por favor.',
} as const;

/** A menu: its message, a blank line, one "[n] option" line per option. */
export const menuText = (message: string, options: readonly { number: number; value: string }[]) =>
  [message.trim(), options.map((o) => `[${o.number}] ${o.value}`).join('\n')].filter((p) => p).join('\n\n');

/** A menu asked again after an answer that chose nothing: the reason, then the options. */
export const menuRetryText = (lang: string, options: readonly { number: number; value: string }[]) =>
  [INVALID_OPTION[pick(lang)], options.map((o) => `[${o.number}] ${o.value}`).join('\n')].join('\n\n');

/** A question asked again after an answer without text (a sticker, an audio): the reason, then the question. */
export const questionRetryText = (lang: string, question: string) => [INVALID_ANSWER[pick(lang)], question.trim()].join('\n\n');
