import { normalizePhrase, type FlowConditionOperator } from '@atrium/shared';

/**
 * How the engine reads what the customer said, and fills a text's {{variables}}. Answers are compared
 * trimmed, with case, accents and repeated spaces ignored (spec 04 section 11 note): "1", " 1", "1)",
 * "[1]" and the option's own text all choose option 1.
 */
export const normalizeAnswer = normalizePhrase;

const NUMBERED = /^\[?\s*(\d{1,3})\s*[\]).:\-–]?$/;

/** The option a menu answer chooses (its number), or null. `replyId` is a tapped button or list row. */
export const matchMenuOption = (
  options: readonly { number: number; value: string }[],
  body: string,
  replyId?: string | null,
  render: (text: string) => string = (t) => t,
): number | null => {
  const answer = normalizeAnswer(body);
  const numbered = NUMBERED.exec(answer);
  if (numbered) {
    const n = Number(numbered[1]);
    return options.some((o) => o.number === n) ? n : null;
  }
  if (answer) {
    const byText = options.find((o) => normalizeAnswer(render(o.value)) === answer);
    if (byText) return byText.number;
  }
  if (replyId) {
    const id = normalizeAnswer(replyId);
    const byId = options.find((o) => String(o.number) === id || `a${o.number}` === id);
    if (byId) return byId.number;
  }
  return null;
};

const asNumber = (text: string): number | null => {
  const cleaned = text.trim().replace(/\s/g, '');
  if (!/^-?\d+([.,]\d+)?$/.test(cleaned)) return null;
  return Number(cleaned.replace(',', '.'));
};

/** A condition node's test of a variable against its value (case, accents and spaces ignored). */
export const evaluateCondition = (operator: FlowConditionOperator, actual: string | undefined, expected: string): boolean => {
  const a = normalizeAnswer(actual ?? '');
  const e = normalizeAnswer(expected);
  switch (operator) {
    case 'equals':
      return a === e;
    case 'notEquals':
      return a !== e;
    case 'contains':
      return a.includes(e);
    case 'notContains':
      return !a.includes(e);
    case 'startsWith':
      return a.startsWith(e);
    case 'endsWith':
      return a.endsWith(e);
    case 'greaterThan':
    case 'lessThan': {
      const x = asNumber(actual ?? '');
      const y = asNumber(expected);
      if (x === null || y === null) return false;
      return operator === 'greaterThan' ? x > y : x < y;
    }
    case 'isEmpty':
      return a === '';
    case 'isNotEmpty':
      return a !== '';
  }
};

/**
 * One {{...}} namespace for flows: the message variables (contact, protocol, greeting, date, time) and
 * what the flow's questions captured, which win on a shared name. A name nobody set renders empty.
 */
export const renderFlowText = (text: string, variables: Readonly<Record<string, string>>): string =>
  text.includes('{{') ? text.replace(/\{\{\s*([\p{L}\p{N}_]+)\s*\}\}/gu, (_m, key: string) => variables[key] ?? '') : text;
