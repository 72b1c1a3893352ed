import { addDays, differenceInCalendarDays, format, parseISO } from 'date-fns';
import type { TicketsDayRow, TicketsUsersRow } from '../api/dashboard';

/** Minutes as the dashboard shows times: `HH h mm m` (hours not wrapped at 24). */
export const formatMinutes = (minutes: number | null | undefined): string => {
  const total = Number.isFinite(minutes) && (minutes as number) > 0 ? Math.round(minutes as number) : 0;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 60))} h ${pad(total % 60)} m`;
};

/** One bar of a chart: `label` under the bar (short), `title` in its tooltip. */
export interface Bar {
  label: string;
  title: string;
  value: number;
}

export const userBars = (rows: readonly TicketsUsersRow[]): Bar[] =>
  rows.map((r) => ({ label: r.nome, title: r.nome, value: r.quantidade }));

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A one-day answer: every hour of the day, 0 where none. */
export const hourBars = (rows: readonly TicketsDayRow[]): Bar[] => {
  const byHour = new Map<number, number>();
  for (const r of rows) if ('horario' in r) byHour.set(Number(r.horario), r.total);
  return Array.from({ length: 24 }, (_, h) => ({
    label: `${pad2(h)}h`,
    title: `${pad2(h)}:00–${pad2(h)}:59`,
    value: byHour.get(h) ?? 0,
  }));
};

/** Most days a chart fills in; a longer range shows the days the server sent. */
export const MAX_FILLED_DAYS = 366;

/** A range answer: every day from initialDate to finalDate in order, 0 where none. */
export const dayBars = (rows: readonly TicketsDayRow[], initialDate: string, finalDate: string): Bar[] => {
  const byDay = new Map<string, number>();
  for (const r of rows) if ('data' in r) byDay.set(r.data, r.total);
  const start = parseISO(initialDate);
  const days = differenceInCalendarDays(parseISO(finalDate), start) + 1;
  const bar = (data: string, value: number) => ({ label: data.slice(0, 5), title: data, value });
  if (!(days > 0) || days > MAX_FILLED_DAYS) return [...byDay].map(([data, total]) => bar(data, total));
  return Array.from({ length: days }, (_, i) => {
    const data = format(addDays(start, i), 'dd/MM/yyyy');
    return bar(data, byDay.get(data) ?? 0);
  });
};
