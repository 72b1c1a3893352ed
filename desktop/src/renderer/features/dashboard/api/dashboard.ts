import type { DashboardAnswer, DashboardChartAnswer, TicketsDayRow, TicketsUsersRow } from '@atrium/shared';
import { api } from '../../../api/client';

export type { DashboardAnswer, DashboardAttendant, DashboardCounters, TicketsDayRow, TicketsUsersRow } from '@atrium/shared';

export const DASHBOARD_KEY = ['dashboard'] as const;
export const TICKETS_USERS_KEY = ['dashboard-tickets-users'] as const;
export const TICKETS_DAY_KEY = ['dashboard-tickets-day'] as const;

/** What GET /dashboard is asked: the last `days` days and/or a date range (yyyy-MM-dd). */
export interface DashboardParams {
  days?: number;
  date_from?: string;
  date_to?: string;
}

/** The screen's filter: a date range or one of the periods (spec 01 section 9). */
export type FilterType = 'date' | 'period';
export interface DashboardFilter {
  type: FilterType;
  days: number;
  dateFrom: string;
  dateTo: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A yyyy-MM-dd that is a real calendar day. */
export const isDay = (value: string): boolean => {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
};

/**
 * The filter rule (spec 01 section 5): the chosen kind of filter gives the parameters (a period of 0
 * days and empty or invalid dates give none); null when nothing is left, which the screen refuses.
 */
export const dashboardParams = (filter: DashboardFilter): DashboardParams | null => {
  const params: DashboardParams = {};
  if (filter.type === 'period') {
    if (filter.days > 0) params.days = filter.days;
  } else {
    if (isDay(filter.dateFrom)) params.date_from = filter.dateFrom;
    if (isDay(filter.dateTo)) params.date_to = filter.dateTo;
  }
  return Object.keys(params).length > 0 ? params : null;
};

export const dashboardApi = {
  get: async (params: DashboardParams) => (await api.get<DashboardAnswer>('/dashboard', { params })).data,
  ticketsUsers: async (initialDate: string, finalDate: string) =>
    (await api.get<DashboardChartAnswer<TicketsUsersRow>>('/dashboard/ticketsUsers', { params: { initialDate, finalDate } })).data,
  ticketsDay: async (initialDate: string, finalDate: string) =>
    (await api.get<DashboardChartAnswer<TicketsDayRow>>('/dashboard/ticketsDay', { params: { initialDate, finalDate } })).data,
};
