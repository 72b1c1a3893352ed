import type { PromptView } from '@atrium/shared';

/** The prompts module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'prompt.changed': { companyId: number; action: 'create' | 'update'; record: PromptView<Date> };
    'prompt.deleted': { companyId: number; id: number };
  }
}

export {};
