/**
 * Message variables (spec 01 section 3, spec 03 section 6, with its notes): {{firstName}}, {{name}},
 * {{ms}} (greeting by hour), {{protocol}}, {{date}}, {{hora}}. Rendering never escapes HTML and never
 * fails: an unknown or malformed placeholder stays as typed. Times are the company's time zone.
 */
export interface VariableContext {
  contactName: string;
  timeZone: string;
  /** Stable per conversation (the ticket), so a protocol number does not change between messages. */
  protocolSeed?: { ticketId: number; createdAt: Date };
  now?: Date;
}

const parts = (date: Date, timeZone: string) => {
  const fmt = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const map = Object.fromEntries(fmt.formatToParts(date).map((p) => [p.type, p.value]));
  return { y: map.year, mo: map.month, d: map.day, h: map.hour, mi: map.minute, s: map.second };
};

export const greetingFor = (hour: number): string =>
  hour < 6 ? 'Boa madrugada' : hour < 12 ? 'Bom dia' : hour < 18 ? 'Boa tarde' : 'Boa noite';

export const variablesFor = (ctx: VariableContext): Record<string, string> => {
  const now = ctx.now ?? new Date();
  const p = parts(now, ctx.timeZone);
  const name = ctx.contactName.trim();
  const seed = ctx.protocolSeed;
  const protocolBase = seed ? parts(seed.createdAt, ctx.timeZone) : p;
  const protocol = `${protocolBase.y}${protocolBase.mo}${protocolBase.d}${seed ? String(seed.ticketId).padStart(6, '0') : `${p.h}${p.mi}${p.s}`}`;
  const greeting = greetingFor(Number(p.h));
  return {
    name,
    firstName: name.split(/\s+/)[0] ?? '',
    ms: greeting,
    gretting: greeting,
    protocol,
    date: `${p.d}/${p.mo}/${p.y}`,
    hora: `${p.h}:${p.mi}:${p.s}`,
  };
};

export const renderVariables = (text: string, ctx: VariableContext): string => {
  if (!text.includes('{{')) return text;
  const values = variablesFor(ctx);
  return text.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (match, key: string) => (key in values ? values[key] : match));
};
