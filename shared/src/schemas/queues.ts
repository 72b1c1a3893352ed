import { z } from 'zod';
import { WEEKDAYS } from '../constants.js';
import { timeOfDaySchema, textSchema, idSchema } from './common.js';

const text = textSchema.max(4096);
const id = idSchema;
/** The queue form sends '' for "none" in its select and number fields. */
const emptyIsNull = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === '' ? null : v), schema.nullable());

const weekdayEnValues = WEEKDAYS.map((d) => d.weekdayEn) as [string, ...string[]];

/** One day of a queue's attendance hours (HH:MM; '' means no hours set for that day). */
export const queueScheduleSchema = z.object({
  weekday: textSchema.max(30).optional(),
  weekdayEn: z.enum(weekdayEnValues),
  startTime: timeOfDaySchema,
  endTime: timeOfDaySchema,
});
export type QueueScheduleInput = z.infer<typeof queueScheduleSchema>;

/** The days sent replace those days; days not sent keep their hours (the defaults on create). */
const schedulesSchema = z
  .array(queueScheduleSchema)
  .max(7)
  .refine((list) => new Set(list.map((s) => s.weekdayEn)).size === list.length, { message: 'each weekday at most once' });

/** Spec 02 section 9: Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday 00:00-00:00. */
export const DEFAULT_QUEUE_SCHEDULES: readonly { weekday: string; weekdayEn: string; startTime: string; endTime: string }[] =
  WEEKDAYS.map((d) => ({
    weekday: d.weekday,
    weekdayEn: d.weekdayEn,
    startTime: d.weekdayEn === 'sunday' ? '00:00' : '08:00',
    endTime: d.weekdayEn === 'sunday' ? '00:00' : d.weekdayEn === 'saturday' ? '12:00' : '18:00',
  }));

const fields = {
  name: textSchema.trim().min(2).max(50),
  color: textSchema.trim().min(3).max(9),
  greetingMessage: text,
  outOfHoursMessage: text,
  orderQueue: emptyIsNull(z.coerce.number().int().min(0).max(1000000)),
  integrationId: emptyIsNull(id),
  promptId: emptyIsNull(id),
  schedules: schedulesSchema,
};

/** POST /queue (spec 02 sections 3 and 5). */
export const createQueueSchema = z.object({
  name: fields.name,
  color: fields.color,
  greetingMessage: fields.greetingMessage.optional().default(''),
  outOfHoursMessage: fields.outOfHoursMessage.optional().default(''),
  orderQueue: fields.orderQueue.optional().default(null),
  integrationId: fields.integrationId.optional().default(null),
  promptId: fields.promptId.optional().default(null),
  schedules: fields.schedules.optional(),
});
export type CreateQueueInput = z.infer<typeof createQueueSchema>;

/** PUT /queue/{id}: only what is sent changes. */
export const updateQueueSchema = z.object({
  name: fields.name.optional(),
  color: fields.color.optional(),
  greetingMessage: fields.greetingMessage.optional(),
  outOfHoursMessage: fields.outOfHoursMessage.optional(),
  orderQueue: fields.orderQueue.optional(),
  integrationId: fields.integrationId.optional(),
  promptId: fields.promptId.optional(),
  schedules: fields.schedules.optional(),
});
export type UpdateQueueInput = z.infer<typeof updateQueueSchema>;

export const listQueuesQuerySchema = z.object({ companyId: id.optional() });
