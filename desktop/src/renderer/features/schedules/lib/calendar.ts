import { addDays, addMonths, format, startOfMonth, startOfWeek } from 'date-fns';

/** A month as a calendar shows it: whole weeks, six of them, so the grid never changes height. */
export const CALENDAR_DAYS = 42;

/** A local calendar day as a key (yyyy-MM-dd). */
export const dayKey = (date: Date): string => format(date, 'yyyy-MM-dd');

/** The 42 days of `month`'s grid, starting on the week day `weekStartsOn` (0 Sunday). */
export const monthGrid = (month: Date, weekStartsOn: 0 | 1 | 2 | 3 | 4 | 5 | 6 = 0): Date[] => {
  const first = startOfWeek(startOfMonth(month), { weekStartsOn });
  return Array.from({ length: CALENDAR_DAYS }, (_, i) => addDays(first, i));
};

/** The instants a month's grid covers: from its first day's midnight to the midnight after its last. */
export const gridWindow = (month: Date, weekStartsOn: 0 | 1 | 2 | 3 | 4 | 5 | 6 = 0): { from: Date; to: Date } => {
  const days = monthGrid(month, weekStartsOn);
  return { from: days[0], to: addDays(days[days.length - 1], 1) };
};

/** The events of each day, by local date of `sendAt`, soonest first. */
export const placeByDay = <T extends { id: number; sendAt: string }>(items: readonly T[]): Map<string, T[]> => {
  const byDay = new Map<string, T[]>();
  const sorted = [...items].sort((x, y) => new Date(x.sendAt).getTime() - new Date(y.sendAt).getTime() || x.id - y.id);
  for (const item of sorted) {
    const key = dayKey(new Date(item.sendAt));
    const list = byDay.get(key);
    if (list) list.push(item);
    else byDay.set(key, [item]);
  }
  return byDay;
};

export const shiftMonth = (month: Date, by: number): Date => startOfMonth(addMonths(month, by));
