import { describe, expect, it } from 'vitest';
import { createConnectionFormSchema, greetingRequired, updateConnectionFormSchema } from './connections.js';

const fieldsIn = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('the connection greeting rule', () => {
  it('asks for a greeting with more than one distinct queue', () => {
    expect(greetingRequired([1, 2], '')).toBe(true);
    expect(greetingRequired([1, 2], '   ')).toBe(true);
    expect(greetingRequired([1, 2], undefined)).toBe(true);
    expect(greetingRequired([1, 2], 'Choose a queue')).toBe(false);
    expect(greetingRequired([1], '')).toBe(false);
    expect(greetingRequired([1, 1], '')).toBe(false);
    expect(greetingRequired([], '')).toBe(false);
  });

  it('the dialog schemas put it on greetingMessage, beside the other fields’ issues', () => {
    expect(fieldsIn(createConnectionFormSchema.safeParse({ name: 'Main', queueIds: [1, 2], greetingMessage: ' ' }))).toEqual(['greetingMessage']);
    expect(fieldsIn(createConnectionFormSchema.safeParse({ name: '', queueIds: [1, 2] }))).toEqual(['name', 'greetingMessage']);
    expect(createConnectionFormSchema.safeParse({ name: 'Main', queueIds: [1, 2], greetingMessage: 'Hi' }).success).toBe(true);
    expect(createConnectionFormSchema.safeParse({ name: 'Main', queueIds: [1] }).success).toBe(true);
    expect(fieldsIn(updateConnectionFormSchema.safeParse({ queueIds: [1, 2], greetingMessage: '' }))).toEqual(['greetingMessage']);
    // An update that leaves the queues out cannot be judged here: the server judges it with the stored ones.
    expect(updateConnectionFormSchema.safeParse({ greetingMessage: '' }).success).toBe(true);
  });
});
