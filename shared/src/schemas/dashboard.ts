import { z } from 'zod';
import { calendarDaySchema } from './common.js';

/** A calendar day, yyyy-mm-dd, that exists (no 2024-02-30). */
const day = calendarDaySchema;

/** An optional day; an empty parameter counts as absent (`date_from=`). */
const optionalDay = z
  .union([z.literal(''), day])
  .optional()
  .transform((v) => v || undefined);

/**
 * GET /dashboard (spec 01 section 7, spec 03 section 10): `days` = the last N calendar days including
 * today (0: no period), `date_from` / `date_to` in the company's time zone. Any combination narrows.
 */
export const dashboardQuerySchema = z
  .object({
    days: z.coerce.number().int().min(0).max(3650).optional(),
    date_from: optionalDay,
    date_to: optionalDay,
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, {
    message: 'date_from after date_to',
    path: ['date_to'],
  });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** GET /dashboard/ticketsUsers and /dashboard/ticketsDay: both days inclusive, in the company's time zone. */
export const dashboardChartQuerySchema = z
  .object({ initialDate: day, finalDate: day })
  .refine((q) => q.initialDate <= q.finalDate, { message: 'initialDate after finalDate', path: ['finalDate'] });
export type DashboardChartQuery = z.infer<typeof dashboardChartQuerySchema>;

/** Times are minutes (2 decimals); rating is the 0-3 mean of the period's ratings. */
export interface DashboardCounters {
  supportHappening: number;
  supportPending: number;
  supportFinished: number;
  leads: number;
  avgSupportTime: number;
  avgWaitTime: number;
}

export interface DashboardAttendant {
  id: number;
  name: string;
  rating: number;
  avgSupportTime: number;
  tickets: number;
  online: boolean;
}

export interface DashboardAnswer {
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
}

/** Cycles finished per user (users without any: 0). */
export interface TicketsUsersRow {
  nome: string;
  quantidade: number;
}

/** Cycles created per hour (0-23) when the period is one day, else per day (dd/mm/yyyy, in date order). */
export type TicketsDayRow = { horario: number; total: number } | { data: string; total: number };

export interface DashboardChartAnswer<Row> {
  data: Row[];
  count: number;
}
