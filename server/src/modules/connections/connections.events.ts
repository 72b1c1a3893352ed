import type { ConnectionSessionView, ConnectionView } from '@atrium/shared';

/** The connections module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'connection.changed': { companyId: number; action: 'create' | 'update'; whatsapp: ConnectionView<Date> };
    'connection.deleted': { companyId: number; whatsappId: number };
    'connection.session': { companyId: number; session: ConnectionSessionView<Date> };
    /** A linked number stayed down longer than the limit (told once per outage). */
    'connection.down': { companyId: number; whatsappId: number; name: string; number: string; since: Date; minutes: number };
  }
}

