import { EntitySchema } from '@mikro-orm/core';

/** A fixed-window counter per key (login by IP, login by email, signup by IP); kept in the database so instances share it. */
export class RateLimit {
  key!: string;
  count!: number;
  resetAt!: Date;
}

export const RateLimitSchema = new EntitySchema<RateLimit>({
  class: RateLimit,
  tableName: 'rate_limits',
  properties: {
    key: { type: 'string', length: 300, primary: true },
    count: { type: 'integer' },
    resetAt: { type: 'datetime', columnType: 'timestamptz' },
  },
});
