import { describe, expect, it } from 'vitest';
import { calendarDaySchema, idSchema, instantSchema, textSchema } from './common.js';
import { createContactSchema, listContactsQuerySchema } from './contacts.js';
import { createScheduleSchema } from './schedules.js';
import { listTicketsQuerySchema, sendMessageSchema } from './tickets.js';
import { listQuerySchema } from '../paging.js';

describe('the input primitives', () => {
  it('text refuses U+0000 anywhere, keeps every other character', () => {
    expect(textSchema.safeParse('a\u0000b').success).toBe(false);
    expect(textSchema.safeParse('\u0000').success).toBe(false);
    expect(textSchema.safeParse('olá \u0001 🙂').success).toBe(true);
  });

  it('a calendar day exists', () => {
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-45', '2024-99-01', '0000-01-01', '2024-1-01', '']) {
      expect(calendarDaySchema.safeParse(bad).success, bad).toBe(false);
    }
    for (const good of ['2024-02-29', '2024-12-31', '0001-01-01', '9999-12-31']) {
      expect(calendarDaySchema.safeParse(good).success, good).toBe(true);
    }
  });

  it('an instant lies in years 1-9999 and its day exists', () => {
    for (const bad of ['+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00Z', '2031-02-30T10:00:00Z', 'tomorrow', '']) {
      expect(instantSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(instantSchema.safeParse(new Date(8.64e15)).success).toBe(false);
    expect(instantSchema.parse('2031-02-28T10:00:00-03:00').toISOString()).toBe('2031-02-28T13:00:00.000Z');
  });

  it('an id fits PostgreSQL’s integer', () => {
    expect(idSchema.safeParse('2147483647').success).toBe(true);
    for (const bad of ['2147483648', '9999999999', '0', '-1', '1.5']) expect(idSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe('the schemas built on them', () => {
  it('refuse NUL in query parameters and bodies', () => {
    expect(listQuerySchema.safeParse({ searchParam: 'a\u0000' }).success).toBe(false);
    expect(listTicketsQuerySchema.safeParse({ searchParam: 'a\u0000' }).success).toBe(false);
    expect(createContactSchema.safeParse({ name: 'Ana\u0000', number: '5511988887777' }).success).toBe(false);
    expect(sendMessageSchema.safeParse({ body: 'hi\u0000' }).success).toBe(false);
  });

  it('refuse impossible dates and ids beyond the integer range', () => {
    expect(listTicketsQuerySchema.safeParse({ updatedAt: '2024-02-30' }).success).toBe(false);
    expect(listTicketsQuerySchema.safeParse({ users: '9999999999' }).success).toBe(false);
    expect(listTicketsQuerySchema.safeParse({ queueIds: '[2147483648]' }).success).toBe(false);
    expect(listContactsQuerySchema.safeParse({ dateStart: '2024-99-01' }).success).toBe(false);
    expect(createScheduleSchema.safeParse({ body: 'Hello', contactId: 1, sendAt: '+275760-09-13T00:00:00.000Z' }).success).toBe(false);
  });
});
