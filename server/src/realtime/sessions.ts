import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../context.js';
import { assertCompanyUsable } from '../modules/auth/index.js';
import type { SessionCheck } from './server.js';

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
 * The sessions behind open sockets, checked again in one query: the same rules as the handshake's
 * authenticate(), minus the access token's own expiry (a socket outlives its 15-minute token), plus the
 * session's hard expiry.
 */
export const createSessionCheck =
  (systemEm: () => EntityManager): SessionCheck =>
  async (sessionIds) => {
    const valid = new Map<string, Actor>();
    if (sessionIds.length === 0) return valid;
    const rows: SessionRow[] = await systemEm()
      .getConnection()
      .execute(
        `select s.id as session_id, s.revoked_at, s.expires_at, u.id as user_id, u.profile, u.super, u.company_id,
                c.status, to_char(c.due_date, 'YYYY-MM-DD') as due_date, c.timezone
           from sessions s join users u on u.id = s.user_id join companies c on c.id = u.company_id
          where s.id in (${sessionIds.map(() => '?').join(', ')})`,
        sessionIds,
      );
    for (const row of rows) {
      if (row.revoked_at || new Date(row.expires_at).getTime() <= Date.now()) continue;
      try {
        assertCompanyUsable({ status: row.status, dueDate: row.due_date, timezone: row.timezone }, { super: row.super });
      } catch {
        continue;
      }
      valid.set(row.session_id, {
        userId: row.user_id,
        companyId: row.company_id,
        profile: row.profile === 'admin' ? 'admin' : 'user',
        isSuper: row.super,
        sessionId: row.session_id,
      });
    }
    return valid;
  };
