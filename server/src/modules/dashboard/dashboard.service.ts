import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  DashboardAnswer,
  DashboardChartAnswer,
  DashboardChartQuery,
  DashboardQuery,
  TicketsDayRow,
  TicketsUsersRow,
} from '@atrium/shared';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';

/**
 * The dashboard (spec 01 sections 2 and 7, spec 03 section 10), computed in SQL over the attendance
 * cycles (`ticket_trackings`). Raw SQL is outside the ORM's tenant filter, so every statement names
 * the caller's company itself; day boundaries are midnights in the company's time zone.
 */

/** Minutes and ratings go out with 2 decimals. */
const round2 = (value: unknown): number => Math.round(Number(value ?? 0) * 100) / 100;

interface Period {
  /** Cycles queued (ratings made) from this instant; null: no lower bound. */
  since: Date | null;
  /** Cycles finished (ratings made) before this instant; null: no upper bound, unfinished cycles count. */
  until: Date | null;
}

/** The later of two instants (the driver may hand them over as text). */
const latest = (...values: (Date | string | null)[]): Date | null => {
  const dates = values.filter((v) => v !== null).map((v) => new Date(v));
  return dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;
};

/**
 * The company's time zone and the period of GET /dashboard: `days` = N calendar days ending today
 * (0 or absent: none), `date_from` from that day's start, `date_to` up to that day's end; together, the
 * narrowest of them.
 */
const dashboardWindow = async (em: EntityManager, query: DashboardQuery): Promise<{ companyId: number; window: Period }> => {
  const companyId = requireTenant(em);
  const days = query.days && query.days > 0 ? query.days : null;
  const [row] = await em.execute<{ since_days: Date | null; since_from: Date | null; until: Date | null }[]>(
    `select
       case when ?::int is null then null else ((now() at time zone c.timezone)::date - ?::int + 1)::timestamp at time zone c.timezone end as since_days,
       case when ?::date is null then null else (?::date)::timestamp at time zone c.timezone end as since_from,
       case when ?::date is null then null else (?::date + 1)::timestamp at time zone c.timezone end as until
     from companies c where c.id = ?`,
    [days, days, query.date_from ?? null, query.date_from ?? null, query.date_to ?? null, query.date_to ?? null, companyId],
  );
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return { companyId, window: { since: latest(row.since_days, row.since_from), until: row.until ? new Date(row.until) : null } };
};

/** The cycles of the period, as a WHERE over `ticket_trackings tt`, and its parameters. */
const cyclesIn = (companyId: number, window: Period): [string, unknown[]] => {
  const where = ['tt.company_id = ?'];
  const params: unknown[] = [companyId];
  if (window.since) {
    // A cycle reopened straight into a conversation was never queued: it counts from its creation.
    where.push('coalesce(tt.queued_at, tt.created_at) >= ?');
    params.push(window.since);
  }
  if (window.until) {
    where.push('tt.finished_at < ?');
    params.push(window.until);
  }
  return [where.join(' and '), params];
};

/** Ratings given in the period, as a WHERE over `user_ratings r`. */
const ratingsIn = (companyId: number, window: Period): [string, unknown[]] => {
  const where = ['r.company_id = ?', 'r.user_id is not null'];
  const params: unknown[] = [companyId];
  if (window.since) {
    where.push('r.created_at >= ?');
    params.push(window.since);
  }
  if (window.until) {
    where.push('r.created_at < ?');
    params.push(window.until);
  }
  return [where.join(' and '), params];
};

/**
 * Minutes from start to the rating request (else the finish), and from queued to start; positive only.
 * date_part gives a float (extract's numeric is several times slower to sum over a large period).
 */
const SUPPORT_MINUTES = `date_part('epoch', coalesce(tt.rating_at, tt.finished_at) - tt.started_at) / 60`;
const SUPPORT_POSITIVE = `coalesce(tt.rating_at, tt.finished_at) > tt.started_at`;
const WAIT_MINUTES = `date_part('epoch', tt.started_at - tt.queued_at) / 60`;
const WAIT_POSITIVE = `tt.started_at > tt.queued_at`;

interface CycleSums {
  user_id: number | null;
  cycles: number;
  finished: number;
  support_sum: number | null;
  support_n: number;
  wait_sum: number | null;
  wait_n: number;
}

const mean = (sum: number, n: number) => (n > 0 ? round2(sum / n) : 0);

/**
 * GET /dashboard: counters and attendants of the caller's company (admins). The statements are
 * independent and each reads the period once, so they run side by side on separate connections.
 */
export const getDashboard = async (ctx: ServiceContext, query: DashboardQuery): Promise<DashboardAnswer> => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const { companyId, window } = await dashboardWindow(em, query);
  const [cycles, cycleParams] = cyclesIn(companyId, window);
  const [ratings, ratingParams] = ratingsIn(companyId, window);

  const [[now], sums, [leads], users] = await Promise.all([
    em.execute<{ open: number; pending: number }[]>(
      `select count(*) filter (where status = 'open')::int as open, count(*) filter (where status = 'pending')::int as pending
       from tickets where company_id = ? and status in ('open', 'pending')`,
      [companyId],
    ),
    // Per attendant (null: never attended); the company's totals are the sums of these.
    em.execute<CycleSums[]>(
      `select tt.user_id, count(*)::int as cycles, count(tt.finished_at)::int as finished,
         sum(${SUPPORT_MINUTES}) filter (where ${SUPPORT_POSITIVE}) as support_sum,
         count(*) filter (where ${SUPPORT_POSITIVE})::int as support_n,
         sum(${WAIT_MINUTES}) filter (where ${WAIT_POSITIVE}) as wait_sum,
         count(*) filter (where ${WAIT_POSITIVE})::int as wait_n
       from ticket_trackings tt where ${cycles} group by tt.user_id`,
      cycleParams,
    ),
    // New contacts: exactly one cycle in the period.
    em.execute<{ leads: number }[]>(
      `select count(*)::int as leads from (
         select t.contact_id from ticket_trackings tt join tickets t on t.id = tt.ticket_id
         where ${cycles} and t.company_id = ? group by t.contact_id having count(*) = 1) once`,
      [...cycleParams, companyId],
    ),
    em.execute<{ id: number; name: string; online: boolean; rating: string | null }[]>(
      `select u.id, u.name, u.online, r.rating
       from users u
       left join (select r.user_id, avg(r.rate) as rating from user_ratings r where ${ratings} group by r.user_id) r on r.user_id = u.id
       where u.company_id = ?
       order by u.name, u.id`,
      [...ratingParams, companyId],
    ),
  ]);

  const total = (pick: (s: CycleSums) => number | string | null) => sums.reduce((acc, s) => acc + Number(pick(s) ?? 0), 0);
  const byUser = new Map(sums.map((s) => [s.user_id, s]));
  return {
    counters: {
      supportHappening: now.open,
      supportPending: now.pending,
      supportFinished: total((s) => s.finished),
      leads: leads.leads,
      avgSupportTime: mean(total((s) => s.support_sum), total((s) => s.support_n)),
      avgWaitTime: mean(total((s) => s.wait_sum), total((s) => s.wait_n)),
    },
    attendants: users.map((u) => {
      const mine = byUser.get(u.id);
      return {
        id: u.id,
        name: u.name,
        rating: round2(u.rating),
        avgSupportTime: mine ? mean(Number(mine.support_sum ?? 0), mine.support_n) : 0,
        tickets: mine?.cycles ?? 0,
        online: u.online,
      };
    }),
  };
};

/** The company's time zone and the bounds of both days, inclusive: [start of initialDate, start of the day after finalDate). */
const chartWindow = async (em: EntityManager, query: DashboardChartQuery) => {
  const companyId = requireTenant(em);
  const [row] = await em.execute<{ timezone: string; since: Date; until: Date }[]>(
    `select c.timezone, (?::date)::timestamp at time zone c.timezone as since, (?::date + 1)::timestamp at time zone c.timezone as until
     from companies c where c.id = ?`,
    [query.initialDate, query.finalDate, companyId],
  );
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return { companyId, timezone: row.timezone, since: row.since, until: row.until };
};

/** GET /dashboard/ticketsUsers: cycles finished in the period per user; every company user, 0 when none. */
export const ticketsPerUser = async (ctx: ServiceContext, query: DashboardChartQuery): Promise<DashboardChartAnswer<TicketsUsersRow>> => {
  requireAdmin(ctx.actor);
  const { companyId, since, until } = await chartWindow(ctx.em, query);
  const rows = await ctx.em.execute<{ nome: string; quantidade: number }[]>(
    `select u.name as nome, coalesce(c.n, 0)::int as quantidade
     from users u
     left join (
       select tt.user_id, count(*) as n from ticket_trackings tt
       where tt.company_id = ? and tt.user_id is not null and tt.finished_at >= ? and tt.finished_at < ? group by tt.user_id
     ) c on c.user_id = u.id
     where u.company_id = ?
     order by quantidade desc, u.name, u.id`,
    [companyId, since, until, companyId],
  );
  const data = rows.map((r) => ({ nome: r.nome, quantidade: r.quantidade }));
  return { data, count: data.reduce((sum, r) => sum + r.quantidade, 0) };
};

/** GET /dashboard/ticketsDay: cycles created per hour (one day) or per day (dd/mm/yyyy, in date order). */
export const ticketsPerDay = async (ctx: ServiceContext, query: DashboardChartQuery): Promise<DashboardChartAnswer<TicketsDayRow>> => {
  requireAdmin(ctx.actor);
  const { companyId, timezone, since, until } = await chartWindow(ctx.em, query);
  const created = 'tt.created_at >= ? and tt.created_at < ?';
  const local = `(tt.created_at at time zone ?)`;
  let data: TicketsDayRow[];
  if (query.initialDate === query.finalDate) {
    const rows = await ctx.em.execute<{ horario: number; total: number }[]>(
      `select extract(hour from ${local})::int as horario, count(*)::int as total
       from ticket_trackings tt where tt.company_id = ? and ${created}
       group by 1 order by 1`,
      [timezone, companyId, since, until],
    );
    data = rows.map((r) => ({ horario: r.horario, total: r.total }));
  } else {
    const rows = await ctx.em.execute<{ data: string; total: number }[]>(
      `select to_char(day, 'DD/MM/YYYY') as data, total from (
         select ${local}::date as day, count(*)::int as total
         from ticket_trackings tt where tt.company_id = ? and ${created} group by 1
       ) days order by day`,
      [timezone, companyId, since, until],
    );
    data = rows.map((r) => ({ data: r.data, total: r.total }));
  }
  return { data, count: data.reduce((sum, r) => sum + r.total, 0) };
};
