import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../context.js';
import { AppError } from '../../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface SessionRow {
  session_id: string;
  revoked_at: Date | null;
  expires_at: Date;
  user_id: number;
  profile: string;
  super: boolean;
  company_id: number;
  status: boolean;
  due_date: string | null;
  timezone: string;
}

/**
 * The sessions among `ids` that still stand, each with the actor it stands for today (profile and super
 * as the database says now), read in one query. A session revoked, past its hard expiry or of a deleted
 * user is absent; one whose company may not be used maps to that refusal (ERR_COMPANY_INACTIVE,
 * ERR_SUBSCRIPTION_EXPIRED). An HTTP request (authenticate) and the open sockets (the realtime recheck)
 * ask the same question here.
 */
export const liveSessions = async (em: EntityManager, ids: string[]): Promise<Map<string, Actor | AppError>> => {
  const live = new Map<string, Actor | AppError>();
  // Session ids are UUIDs; anything else names no session.
  const wanted = ids.filter((id) => UUID.test(id));
  if (wanted.length === 0) return live;
  const rows: SessionRow[] = await em.getConnection().execute(
    `select s.id as session_id, s.revoked_at, s.expires_at, u.id as user_id, u.profile, u.super, u.company_id,
            c.status, to_char(c.due_date, 'YYYY-MM-DD') as due_date, c.timezone
       from sessions s join users u on u.id = s.user_id join companies c on c.id = u.company_id
      where s.id = any(?::uuid[])`,
    [`{${wanted.join(',')}}`],
  );
  for (const row of rows) {
    if (row.revoked_at || new Date(row.expires_at).getTime() <= Date.now()) continue;
    const refusal = companyRefusal({ status: row.status, dueDate: row.due_date, timezone: row.timezone }, { super: row.super });
    live.set(
      row.session_id,
      refusal ?? {
        userId: row.user_id,
        companyId: row.company_id,
        profile: row.profile === 'admin' ? 'admin' : 'user',
        isSuper: row.super,
        sessionId: row.session_id,
      },
    );
  }
  return live;
};

/** Why a company cannot be used now (status off, subscription past due), or null; super users always can. */
export const companyRefusal = (
  company: { status: boolean; dueDate: string | null; timezone: string },
  user: { super: boolean },
): AppError | null => {
  if (user.super) return null;
  if (!company.status) return new AppError('ERR_COMPANY_INACTIVE');
  if (company.dueDate && company.dueDate < todayIn(company.timezone)) return new AppError('ERR_SUBSCRIPTION_EXPIRED', { dueDate: company.dueDate });
  return null;
};

/** A company whose status is off or whose dueDate has passed cannot be used (super users excepted). */
export const assertCompanyUsable = (company: { status: boolean; dueDate: string | null; timezone: string }, user: { super: boolean }): void => {
  const refusal = companyRefusal(company, user);
  if (refusal) throw refusal;
};

/** yyyy-MM-dd today in a time zone. */
export const todayIn = (timeZone: string, now = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
