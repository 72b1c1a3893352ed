import { describe, expect, it } from 'vitest';
import { isWithinHours, localClock, type DayHours } from './hours.js';
import { optionMenu, queueMenu, renderedFrom, topOptionsMenu } from './texts.js';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const week = (hours: Partial<Record<string, [string, string]>>): DayHours[] =>
  DAYS.map((weekdayEn) => ({ weekdayEn, startTime: hours[weekdayEn]?.[0] ?? '', endTime: hours[weekdayEn]?.[1] ?? '' }));
const every = (start: string, end: string) => week(Object.fromEntries(DAYS.map((d) => [d, [start, end]])));

// 2026-03-02 is a Monday. São Paulo is UTC-3 (no daylight saving), Tokyo UTC+9.
const sp = (isoLocal: string) => new Date(`${isoLocal}-03:00`);
const SP = 'America/Sao_Paulo';

describe('localClock', () => {
  it('reads weekday and minute in the given time zone', () => {
    const instant = new Date('2026-03-02T02:30:00Z');
    expect(localClock(instant, SP)).toEqual({ weekdayEn: 'sunday', minutes: 23 * 60 + 30 });
    expect(localClock(instant, 'Asia/Tokyo')).toEqual({ weekdayEn: 'monday', minutes: 11 * 60 + 30 });
  });
});

describe('isWithinHours', () => {
  it('a day range: open from start, closed from end', () => {
    const hours = every('08:00', '18:00');
    expect(isWithinHours(hours, sp('2026-03-02T07:59:00'), SP)).toBe(false);
    expect(isWithinHours(hours, sp('2026-03-02T08:00:00'), SP)).toBe(true);
    expect(isWithinHours(hours, sp('2026-03-02T17:59:00'), SP)).toBe(true);
    expect(isWithinHours(hours, sp('2026-03-02T18:00:00'), SP)).toBe(false);
  });

  it('uses the company time zone, not the server’s', () => {
    const hours = every('08:00', '18:00');
    const tenAmInSaoPaulo = sp('2026-03-02T10:00:00');
    expect(isWithinHours(hours, tenAmInSaoPaulo, SP)).toBe(true);
    expect(isWithinHours(hours, tenAmInSaoPaulo, 'Asia/Tokyo')).toBe(false); // 22:00 in Tokyo
  });

  it('a day without times is open; start equal to end ("00:00"-"00:00") is closed all day', () => {
    const hours = week({ monday: ['08:00', '18:00'], sunday: ['00:00', '00:00'] });
    expect(isWithinHours(hours, sp('2026-03-03T03:00:00'), SP)).toBe(true); // Tuesday, no times
    expect(isWithinHours(hours, sp('2026-03-01T12:00:00'), SP)).toBe(false); // Sunday, closed
    expect(isWithinHours(hours, sp('2026-03-01T00:00:00'), SP)).toBe(false);
    expect(isWithinHours([], sp('2026-03-01T12:00:00'), SP)).toBe(true);
  });

  it('an overnight range runs past midnight into the next day', () => {
    const hours = week({ friday: ['22:00', '02:00'] });
    // Friday 2026-03-06
    expect(isWithinHours(hours, sp('2026-03-06T21:59:00'), SP)).toBe(false);
    expect(isWithinHours(hours, sp('2026-03-06T23:30:00'), SP)).toBe(true);
    expect(isWithinHours(hours, sp('2026-03-07T01:59:00'), SP)).toBe(true); // Saturday, from Friday's range
    // Saturday has no times: open anyway.
    expect(isWithinHours(hours, sp('2026-03-07T03:00:00'), SP)).toBe(true);
    const nights = every('22:00', '06:00');
    expect(isWithinHours(nights, sp('2026-03-03T05:59:00'), SP)).toBe(true);
    expect(isWithinHours(nights, sp('2026-03-03T06:00:00'), SP)).toBe(false);
    expect(isWithinHours(nights, sp('2026-03-03T12:00:00'), SP)).toBe(false);
    expect(isWithinHours(nights, sp('2026-03-03T22:00:00'), SP)).toBe(true);
  });

  it('a closed day still ends yesterday’s overnight range on time', () => {
    const hours = week({ saturday: ['20:00', '03:00'], sunday: ['00:00', '00:00'] });
    expect(isWithinHours(hours, sp('2026-03-08T02:00:00'), SP)).toBe(true); // Sunday early: Saturday's night
    expect(isWithinHours(hours, sp('2026-03-08T03:00:00'), SP)).toBe(false);
  });

  it('an end of "00:00" means until midnight', () => {
    const hours = every('08:00', '00:00');
    expect(isWithinHours(hours, sp('2026-03-02T23:59:00'), SP)).toBe(true);
    expect(isWithinHours(hours, sp('2026-03-03T00:30:00'), SP)).toBe(false);
  });
});

describe('menu texts', () => {
  it('queue menu: greeting, blank line, one numbered line per queue', () => {
    expect(queueMenu('Olá!', [{ name: 'Vendas' }, { name: 'Suporte' }])).toBe('Olá!\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte');
    expect(queueMenu('', [{ name: 'Vendas' }])).toBe('*[ 1 ]* - Vendas');
  });

  it('option menus carry the way back, in the company language', () => {
    const options = [{ option: '1', title: 'Planos' }];
    expect(topOptionsMenu('pt', 'Vendas', options)).toBe('Vendas\n\n*[ 1 ]* - Planos\n\n*[ # ]* - Menu inicial');
    expect(optionMenu('en', 'Plans', options)).toBe('Plans\n\n*[ 1 ]* - Planos\n\n*[ 0 ]* - Previous menu\n*[ # ]* - Main menu');
    expect(optionMenu('es', '', options)).toBe('*[ 1 ]* - Planos\n\n*[ 0 ]* - Menú anterior\n*[ # ]* - Menú principal');
  });

  it('recognises a text rendered from a template, whatever the variables became', () => {
    const template = 'Olá {{firstName}}, são {{hora}}. Voltamos (amanhã)!';
    expect(renderedFrom(template, 'Olá Maria, são 22:10:05. Voltamos (amanhã)!')).toBe(true);
    expect(renderedFrom(template, 'Olá Maria, são 22:10:05. Voltamos hoje!')).toBe(false);
    expect(renderedFrom('Fechado.', 'Fechado.')).toBe(true);
    expect(renderedFrom('Fechado.', 'Fechado. Outro texto')).toBe(false);
  });
});
