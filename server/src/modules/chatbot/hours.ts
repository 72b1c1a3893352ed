/**
 * Attendance hours (spec 03 section 5 with its note): weekly entries of HH:MM times, read in the company's
 * time zone. Our reading of one day's entry:
 * - no entry, or a start or end left empty: no restriction that day (open), as the old product did;
 * - start equal to end (the default Sunday "00:00"-"00:00"): explicitly closed all day;
 * - start before end: open from start until end (end excluded);
 * - start after end: an overnight range, open from start until midnight and on into the next day until end.
 */
export interface DayHours {
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

const WEEK = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

const minutesOf = (hhmm: string): number | null => {
  const m = HHMM.exec(hhmm.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** The weekday (English, lower case) and the minute of the day at `now` in `timeZone`. */
export const localClock = (now: Date, timeZone: string): { weekdayEn: string; minutes: number } => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekdayEn: get('weekday').toLowerCase(), minutes: Number(get('hour')) * 60 + Number(get('minute')) };
};

const rangeOf = (day: DayHours | undefined): { start: number; end: number } | null => {
  if (!day) return null;
  const start = minutesOf(day.startTime);
  const end = minutesOf(day.endTime);
  return start === null || end === null ? null : { start, end };
};

/** Whether `now` falls inside the weekly hours. */
export const isWithinHours = (week: readonly DayHours[], now: Date, timeZone: string): boolean => {
  const { weekdayEn, minutes } = localClock(now, timeZone);
  const index = WEEK.indexOf(weekdayEn as (typeof WEEK)[number]);
  const yesterday = WEEK[(index + 6) % 7];
  const find = (day: string) => week.find((d) => d.weekdayEn.toLowerCase() === day);

  // The early hours may belong to yesterday's overnight range.
  const before = rangeOf(find(yesterday));
  if (before && before.start > before.end && minutes < before.end) return true;

  const today = rangeOf(find(weekdayEn));
  if (!today) return true;
  if (today.start === today.end) return false;
  if (today.start < today.end) return minutes >= today.start && minutes < today.end;
  return minutes >= today.start;
};
