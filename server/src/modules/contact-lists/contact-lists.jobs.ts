import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CONTACT_LIST_IMPORT_MAX_REPORTED,
  contactEmailSchema,
  contactNumberSchema,
  nameSchema,
  type ContactListImportView,
} from '@atrium/shared';
import type { ChannelManager } from '../../channels/manager.js';
import type { ServiceContext } from '../../context.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';
import { ContactListImport, type InvalidImportRow } from './contact-list.entity.js';
import { announceList, findList, presentImport } from './contact-lists.service.js';
import { assertSpreadsheet, readContactSheet, type SheetRecord } from './spreadsheet.js';

/**
 * The list's background work (spec 04 section 3's note): a spreadsheet import as a job with its progress
 * over realtime, and the WhatsApp check of the list's numbers, throttled per connection (a burst of
 * thousands of checks is what gets a number flagged). Both keep their state in the database and hold a
 * lease while they run, so a crash leaves work the minute sweep takes up again, and two processes never
 * run the same list's work at once.
 */
export const IMPORT_JOB = 'contact-lists:import';
export const CHECK_JOB = 'contact-lists:check';
export const SWEEP_JOB = 'contact-lists:sweep';

/** Least time between two number checks through one connection (at most four a second). */
export const CHECK_GAP_MS = 250;
/** A check run works this long, then hands over to a fresh run (a job never outlives its lock). */
const CHECK_RUN_MS = 20_000;
const CHECK_LEASE_S = 60;
const IMPORT_LEASE_S = 120;
/** Rows written per statement. */
const IMPORT_CHUNK = 500;
/** At most one progress event a second per import or check. */
const PROGRESS_MS = 1000;

/** Starts a job now (the scheduler of a route, or the running job's Agenda). */
export type RunNow = (name: string, data: Record<string, unknown>) => Promise<unknown>;

export interface ListJobDeps {
  systemEm: () => EntityManager;
  channels: ChannelManager;
  events: EventBus;
  logger: Logger;
  media: MediaStore;
}

type ImportData = { companyId: number; importId: number };
type CheckData = { companyId: number; contactListId: number };

// ---------------------------------------------------------------------------------------------------
// Import

/**
 * POST /contact-lists/{id}/upload: checks the file is a spreadsheet (.xls or .xlsx, by its signature), keeps
 * it and starts the import job; answers the import (pending). One import at a time per list.
 */
export const startImport = async (
  ctx: ServiceContext,
  deps: { media: MediaStore; runNow: RunNow },
  contactListId: number,
  file: { data: Buffer; mimetype: string; filename: string },
): Promise<ContactListImportView<Date>> => {
  const list = await findList(ctx.em, contactListId);
  const format = assertSpreadsheet(file.data);
  const running = await ctx.em.findOne(ContactListImport, { contactListId: list.id, status: { $in: ['pending', 'running'] } }, { fields: ['id'] });
  if (running) throw new AppError('ERR_IMPORT_RUNNING');
  const stored = await deps.media.save(list.companyId, { data: file.data, mimetype: file.mimetype, filename: file.filename });
  const row = ctx.em.create(ContactListImport, {
    companyId: list.companyId,
    contactListId: list.id,
    storedName: stored.fileName,
    fileName: file.filename.slice(0, 300),
    format,
  });
  await ctx.em.flush();
  await deps.runNow(IMPORT_JOB, { companyId: list.companyId, importId: row.id } satisfies ImportData);
  const view = presentImport(row);
  ctx.events.emit('contactlist.import', { companyId: list.companyId, contactListId: list.id, import: view });
  return view;
};

/** A row as it is stored, or why it is not. */
const rowVerdict = (record: SheetRecord): { name: string; number: string; email: string } | { reason: string } => {
  const number = contactNumberSchema.safeParse(record.number);
  if (!number.success) return { reason: record.number ? 'invalidNumber' : 'missingNumber' };
  // A sheet of numbers alone is common: the number stands in for a missing name.
  const name = nameSchema.safeParse(record.name || number.data);
  if (!name.success) return { reason: 'invalidName' };
  const email = contactEmailSchema.safeParse(record.email);
  if (!email.success) return { reason: 'invalidEmail' };
  return { name: name.data, number: number.data, email: email.data };
};

/** Throttles a stream of announcements to one per `ms`, the last one always said. */
const throttled = <T>(ms: number, say: (value: T) => unknown) => {
  let last = 0;
  return async (value: T, final = false) => {
    const now = Date.now();
    if (!final && now - last < ms) return;
    last = now;
    await say(value);
  };
};

/** Runs import `importId` if it is pending, or running with its lease run out (a crash cut it off). */
export const runImport = async (deps: ListJobDeps, runNow: RunNow, { companyId, importId }: ImportData): Promise<void> => {
  const em = forCompany(deps.systemEm(), companyId);
  const claimed = await em.execute<{ id: number }[]>(
    `update contact_list_imports set status = 'running', lease_until = now() + make_interval(secs => ?),
            processed = 0, created = 0, duplicates = 0, invalid = 0, invalid_rows = '[]'
      where id = ? and company_id = ? and (status = 'pending' or (status = 'running' and lease_until < now())) returning id`,
    [IMPORT_LEASE_S, importId, companyId],
  );
  if (claimed.length === 0) return;
  const row = await em.findOneOrFail(ContactListImport, importId, { refresh: true });
  const announce = throttled(PROGRESS_MS, () => {
    deps.events.emit('contactlist.import', { companyId, contactListId: row.contactListId, import: presentImport(row) });
  });
  const save = async () => {
    await em.nativeUpdate(
      ContactListImport,
      { id: row.id },
      {
        total: row.total,
        processed: row.processed,
        created: row.created,
        duplicates: row.duplicates,
        invalid: row.invalid,
        invalidRows: row.invalidRows,
        leaseUntil: new Date(Date.now() + IMPORT_LEASE_S * 1000),
      },
    );
  };
  try {
    const records = await readContactSheet(await deps.media.read(companyId, row.storedName), row.format);
    row.total = records.length;
    const seen = new Set<string>();
    for (let i = 0; i < records.length; i += IMPORT_CHUNK) {
      const chunk: { name: string; number: string; email: string }[] = [];
      for (const record of records.slice(i, i + IMPORT_CHUNK)) {
        const verdict = rowVerdict(record);
        if ('reason' in verdict) {
          row.invalid += 1;
          if (row.invalidRows.length < CONTACT_LIST_IMPORT_MAX_REPORTED) {
            row.invalidRows.push({ row: record.row, name: record.name, number: record.number, email: record.email, reason: verdict.reason } satisfies InvalidImportRow);
          }
        } else if (seen.has(verdict.number)) {
          row.duplicates += 1;
        } else {
          seen.add(verdict.number);
          chunk.push(verdict);
        }
      }
      if (chunk.length > 0) {
        // A number already in the list (from before, or a concurrent add) is skipped by the unique index.
        const inserted = await em.execute<{ id: number }[]>(
          `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid, checked_at, created_at, updated_at)
           select ?, ?, r.name, r.number, r.email, false, null, now(), now()
             from jsonb_to_recordset(?::jsonb) as r(name text, number text, email text)
           on conflict (contact_list_id, number) do nothing returning id`,
          [companyId, row.contactListId, JSON.stringify(chunk)],
        );
        row.created += inserted.length;
        row.duplicates += chunk.length - inserted.length;
      }
      row.processed = Math.min(records.length, i + IMPORT_CHUNK);
      await save();
      await announce(undefined);
    }
    row.status = 'done';
  } catch (err) {
    row.status = 'failed';
    row.error = err instanceof AppError ? err.code : 'ERR_SPREADSHEET_UNREADABLE';
    if (!(err instanceof AppError)) deps.logger.error({ err, importId }, 'contact list import failed');
  }
  row.finishedAt = new Date();
  await save();
  await em.nativeUpdate(ContactListImport, { id: row.id }, { status: row.status, error: row.error, finishedAt: row.finishedAt, leaseUntil: null });
  await deps.media.remove(companyId, row.storedName).catch(() => undefined);
  await announce(undefined, true);
  deps.events.emit('contactlistitem.reload', { companyId, contactListId: row.contactListId });
  if (row.created > 0) await requestCheck(deps, runNow, companyId, row.contactListId);
  await announceList({ em, events: deps.events }, row.contactListId);
};

/** The invalid rows of an import, as CSV (GET /contact-lists/{id}/import/{importId}/invalid). */
export const invalidRowsCsv = async (ctx: ServiceContext, contactListId: number, importId: number): Promise<string> => {
  await findList(ctx.em, contactListId);
  const row = await ctx.em.findOne(ContactListImport, { id: importId, contactListId });
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return csv([['row', 'name', 'number', 'email', 'reason'], ...row.invalidRows.map((r) => [r.row, r.name, r.number, r.email, r.reason])]);
};

/** CSV with ; (spec 02 section 9), every field quoted; a formula-looking cell is defused for spreadsheets. */
export const csv = (rows: (string | number | null)[][]): string =>
  rows
    .map((cells) =>
      cells
        .map((cell) => {
          let text = cell === null ? '' : String(cell);
          if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
          return `"${text.replace(/"/g, '""')}"`;
        })
        .join(';'),
    )
    .join('\r\n');

/** The latest import of a list (its screen shows it when it opens). */
export const lastImport = async (ctx: ServiceContext, contactListId: number) => {
  await findList(ctx.em, contactListId);
  const row = await ctx.em.findOne(ContactListImport, { contactListId }, { orderBy: { id: 'desc' } });
  return row ? presentImport(row) : null;
};

// ---------------------------------------------------------------------------------------------------
// WhatsApp check of the numbers

/** One check at a time per connection, CHECK_GAP_MS apart, whichever list asks (in this process). */
export class CheckThrottle {
  private readonly nextAt = new Map<number, number>();

  async wait(whatsappId: number): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextAt.get(whatsappId) ?? 0);
    this.nextAt.set(whatsappId, at + CHECK_GAP_MS);
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}

/**
 * Asks for the list's unchecked numbers to be checked (new items, an import, the check button): the
 * list's checker runs now, or goes on if it runs already. `all` unchecks every number first (a re-run).
 */
export const requestCheck = async (
  deps: Pick<ListJobDeps, 'systemEm'>,
  runNow: RunNow,
  companyId: number,
  contactListId: number,
  all = false,
): Promise<void> => {
  const em = forCompany(deps.systemEm(), companyId);
  if (all) {
    await em.execute(`update contact_list_items set checked_at = null, updated_at = now() where company_id = ? and contact_list_id = ?`, [
      companyId,
      contactListId,
    ]);
  }
  await em.execute(`update contact_lists set check_state = 'checking', updated_at = now() where id = ? and company_id = ?`, [contactListId, companyId]);
  await runNow(CHECK_JOB, { companyId, contactListId } satisfies CheckData);
};

/** A connected connection of the company that this process runs: the default one first. */
const checkingSession = async (deps: ListJobDeps, em: EntityManager, companyId: number) => {
  const rows = await em.execute<{ id: number }[]>(
    `select id from whatsapps where company_id = ? and status = 'CONNECTED' order by is_default desc, id`,
    [companyId],
  );
  for (const { id } of rows) {
    const session = deps.channels.findOfCompany(id, companyId);
    if (session) return { whatsappId: id, session };
  }
  return null;
};

/** Runs the list's check for up to CHECK_RUN_MS under its lease; another run follows if numbers are left. */
export const runCheck = async (deps: ListJobDeps, throttle: CheckThrottle, runNow: RunNow, { companyId, contactListId }: CheckData): Promise<void> => {
  const em = forCompany(deps.systemEm(), companyId);
  const claimed = await em.execute<{ id: number }[]>(
    `update contact_lists set check_lease_until = now() + make_interval(secs => ?)
      where id = ? and company_id = ? and check_state <> 'idle' and (check_lease_until is null or check_lease_until < now()) returning id`,
    [CHECK_LEASE_S, contactListId, companyId],
  );
  if (claimed.length === 0) return;
  const progress = throttled(PROGRESS_MS, () => announceList({ em, events: deps.events }, contactListId));
  let again = false;
  try {
    const found = await checkingSession(deps, em, companyId);
    if (!found) {
      // Nothing to check with: the items stay unchecked and the screen says why; the sweep tries again.
      await em.execute(`update contact_lists set check_state = 'noConnection' where id = ?`, [contactListId]);
      await progress(undefined, true);
      return;
    }
    await em.execute(`update contact_lists set check_state = 'checking' where id = ? and check_state <> 'checking'`, [contactListId]);
    const deadline = Date.now() + CHECK_RUN_MS;
    let failures = 0;
    for (;;) {
      const batch = await em.execute<{ id: number; number: string }[]>(
        `select id, number from contact_list_items where contact_list_id = ? and company_id = ? and checked_at is null order by id limit 20`,
        [contactListId, companyId],
      );
      if (batch.length === 0) break;
      for (const item of batch) {
        await throttle.wait(found.whatsappId);
        let checked: string | null;
        try {
          checked = await found.session.checkNumber(item.number);
        } catch (err) {
          if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') {
            await em.execute(`update contact_lists set check_state = 'noConnection' where id = ?`, [contactListId]);
            return;
          }
          failures += 1;
          deps.logger.warn({ err, contactListId, whatsappId: found.whatsappId }, 'number check failed');
          // The network is not answering: leave the rest for the next sweep.
          if (failures >= 5) return;
          continue;
        }
        const canonical = checked ? checked.replace(/\D/g, '') : null;
        // The canonical digits (WhatsApp's ninth-digit fix...) replace the typed ones, unless the list has them already.
        // Only for the number asked about, still unchecked: an edit made during the round trip is checked anew.
        await em.execute(
          `update contact_list_items i set is_whatsapp_valid = ?, checked_at = now(), updated_at = now(),
                  number = case when ?::text is not null and ?::text <> i.number and not exists
                                  (select 1 from contact_list_items o where o.contact_list_id = i.contact_list_id and o.number = ?::text)
                                then ?::text else i.number end
            where id = ? and number = ? and checked_at is null`,
          [canonical !== null, canonical, canonical, canonical, canonical, item.id, item.number],
        );
      }
      await progress(undefined);
      if (Date.now() > deadline) {
        again = true;
        break;
      }
    }
  } finally {
    // Idle only when nothing is left unchecked: a number added meanwhile keeps the list "checking".
    await em.execute(
      `update contact_lists l set check_lease_until = null,
              check_state = case when l.check_state = 'checking' and not exists
                                   (select 1 from contact_list_items i where i.contact_list_id = l.id and i.checked_at is null)
                                 then 'idle' else l.check_state end
        where id = ?`,
      [contactListId],
    );
  }
  if (again) await runNow(CHECK_JOB, { companyId, contactListId } satisfies CheckData);
  await progress(undefined, true);
  deps.events.emit('contactlistitem.reload', { companyId, contactListId });
};

/** The minute sweep: imports and checks a crash (or a missing connection) left unfinished are taken up. */
export const sweepLists = async (deps: ListJobDeps, runNow: RunNow): Promise<void> => {
  const em = deps.systemEm();
  const imports = await em.execute<{ id: number; company_id: number }[]>(
    `select id, company_id from contact_list_imports
      where (status = 'pending' and created_at < now() - interval '30 seconds') or (status = 'running' and lease_until < now())
      order by id limit 50`,
  );
  for (const row of imports) await runNow(IMPORT_JOB, { companyId: row.company_id, importId: row.id } satisfies ImportData);
  const lists = await em.execute<{ id: number; company_id: number }[]>(
    `select l.id, l.company_id from contact_lists l
      where l.check_state <> 'idle' and (l.check_lease_until is null or l.check_lease_until < now())
      order by l.id limit 200`,
  );
  for (const row of lists) await runNow(CHECK_JOB, { companyId: row.company_id, contactListId: row.id } satisfies CheckData);
};

export const registerContactListJobs = (registry: JobRegistry, deps: ListJobDeps): void => {
  const throttle = new CheckThrottle();
  const runNowOf =
    (job: { agenda: { now: (name: string, data: Record<string, unknown>) => Promise<unknown> } }): RunNow =>
    (name, data) =>
      job.agenda.now(name, data);
  registry.define<ImportData>({
    name: IMPORT_JOB,
    lockLifetime: IMPORT_LEASE_S * 1000,
    handler: async (data, job) => runImport(deps, runNowOf(job), data),
  });
  registry.define<CheckData>({
    name: CHECK_JOB,
    lockLifetime: CHECK_LEASE_S * 1000,
    concurrency: 10,
    handler: async (data, job) => runCheck(deps, throttle, runNowOf(job), data),
  });
  registry.define({
    name: SWEEP_JOB,
    every: '1 minute',
    concurrency: 1,
    handler: async (_data, job) => sweepLists(deps, runNowOf(job)),
  });
};

