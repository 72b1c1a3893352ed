import { describe, expect, it } from 'vitest';
import { dateFromDisplay, dateToDisplay, isTime, maskDate, maskTime } from './date-time';

describe('dd/MM/yyyy and 24-hour inputs', () => {
  it('mask digits as they are typed', () => {
    expect(maskDate('2')).toBe('2');
    expect(maskDate('251')).toBe('25/1');
    expect(maskDate('25122026')).toBe('25/12/2026');
    expect(maskDate('25/12/2026 extra 9')).toBe('25/12/2026');
    expect(maskTime('9')).toBe('9');
    expect(maskTime('143')).toBe('14:3');
    expect(maskTime('14:30')).toBe('14:30');
  });

  it('read only whole, real dates', () => {
    expect(dateFromDisplay('25/12/2026')).toBe('2026-12-25');
    expect(dateFromDisplay('29/02/2024')).toBe('2024-02-29');
    expect(dateFromDisplay('29/02/2025')).toBeNull();
    expect(dateFromDisplay('12/25/2026')).toBeNull();
    expect(dateFromDisplay('25/12/26')).toBeNull();
    expect(dateToDisplay('2026-12-25')).toBe('25/12/2026');
    expect(dateToDisplay('2026-12-25T14:30')).toBe('25/12/2026');
    expect(dateToDisplay('')).toBe('');
  });

  it('take 24-hour times only', () => {
    expect(isTime('00:00')).toBe(true);
    expect(isTime('23:59')).toBe(true);
    expect(isTime('24:00')).toBe(false);
    expect(isTime('9:30')).toBe(false);
  });
});
