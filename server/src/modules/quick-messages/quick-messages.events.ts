import type { QuickMessageView } from '../../events/bus.js';

/** The quick-messages module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** `wasShared`: the record was visible company-wide (geral and active) before this change. */
    'quickmessage.changed': { companyId: number; action: 'create' | 'update'; record: QuickMessageView; wasShared: boolean };
    'quickmessage.deleted': { companyId: number; id: number; userId: number | null; wasShared: boolean };
  }
}
