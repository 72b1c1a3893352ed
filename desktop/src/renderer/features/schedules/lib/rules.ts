import { format, isValid } from 'date-fns';
import { SCHEDULE_DEFAULT_DELAY_MS, isScheduleMediaName } from '@atrium/shared';

/** The value of a datetime-local input (local time, minutes). */
export const toLocalInput = (date: Date): string => (isValid(date) ? format(date, "yyyy-MM-dd'T'HH:mm") : '');

/** A datetime-local value as a Date, or null when empty or unreadable. */
export const fromLocalInput = (value: string): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return isValid(date) ? date : null;
};

/** A new schedule goes out an hour from now (spec 01 section 9). */
export const defaultSendAt = (now: Date = new Date()): Date => new Date(now.getTime() + SCHEDULE_DEFAULT_DELAY_MS);

/** A sent schedule is history: the modal shows it without a save button (spec 01 section 4). */
export const isSent = (schedule: { sentAt: string | null } | null | undefined): boolean => Boolean(schedule?.sentAt);

/** Only .png, .jpg and .jpeg pictures can be attached (spec 01 section 5). */
export const isAttachable = (file: { name: string }): boolean => isScheduleMediaName(file.name);
