import Router from '@koa/router';
import type Koa from 'koa';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import {
  CONTACT_LIST_IMPORT_MAX_BYTES,
  CONTACT_LIST_IMPORT_TYPES,
  contactListSampleQuerySchema,
  createContactListItemSchema,
  createContactListSchema,
  idParamSchema,
  idSchema,
  listContactListItemsQuerySchema,
  listQuerySchema,
  queryFlagSchema,
  updateContactListItemSchema,
  updateContactListSchema,
} from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { mediaOf, requiredFile, upload } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { assertPlanFeature } from '../plans/index.js';
import { invalidRowsCsv, lastImport, requestCheck, startImport, type RunNow } from './contact-lists.jobs.js';
import {
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  findList,
  getContactList,
  getContactListItem,
  listAllContactLists,
  listContactListItems,
  listContactLists,
  updateContactList,
  updateContactListItem,
} from './contact-lists.service.js';

const SAMPLE_HEADERS = { pt: ['Nome', 'Número', 'Email'], en: ['Name', 'Number', 'Email'], es: ['Nombre', 'Número', 'Email'] } as const;

/** The sample spreadsheet offered on the lists page: the headers the import reads, in the user's language. */
const sampleSheet = async (lang: keyof typeof SAMPLE_HEADERS): Promise<Buffer> => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow([...SAMPLE_HEADERS[lang]]);
  sheet.addRow(['Maria Silva', '5511987654321', 'maria@example.com']);
  sheet.addRow(['João Souza', '5521998765432', '']);
  sheet.columns.forEach((c) => (c.width = 24));
  return Buffer.from(await workbook.xlsx.writeBuffer());
};

const importParamsSchema = z.object({ id: idSchema, importId: idSchema });
const checkBodySchema = z.object({ all: queryFlagSchema.optional().default(false) });

/**
 * Contact lists and items (spec 02 section 7): any user of the company, with the plan's campaigns flag
 * (enforced here, not only in the menu).
 */
export const contactListsRoutes = (deps: RouteDeps) => {
  const planned: Koa.Middleware<AppState> = async (ctx, next) => {
    await assertPlanFeature(ctx.state.em, ctx.state.actor.companyId, 'useCampaigns');
    await next();
  };
  const runNow: RunNow = (name, data) => deps.scheduler.now(name, data);
  const hooks = { requestCheck: (companyId: number, listId: number) => requestCheck(deps, runNow, companyId, listId) };

  const lists = new Router<AppState>({ prefix: '/contact-lists' });
  lists.use(deps.auth, planned);
  lists.get('/', async (ctx) => {
    ctx.body = await listContactLists(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  lists.get('/list', async (ctx) => {
    ctx.body = await listAllContactLists(ctx.state.service);
  });
  lists.get('/sample', async (ctx) => {
    const { lang } = parse(contactListSampleQuerySchema, ctx.query);
    ctx.set('content-disposition', `attachment; filename="planilha_exemplo.xlsx"`);
    ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.body = await sampleSheet(lang);
  });
  lists.get('/:id', async (ctx) => {
    ctx.body = await getContactList(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  lists.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await createContactList(ctx.state.service, parse(createContactListSchema, ctx.request.body));
  });
  lists.put('/:id', async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateContactList(ctx.state.service, id, parse(updateContactListSchema, ctx.request.body));
  });
  lists.delete('/:id', async (ctx) => {
    await deleteContactList(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Contact list deleted' };
  });
  lists.post(
    '/:id/upload',
    upload({ fields: ['file'], maxFiles: 1, maxBytes: CONTACT_LIST_IMPORT_MAX_BYTES, accept: [...CONTACT_LIST_IMPORT_TYPES] }),
    async (ctx) => {
      const { id } = parse(idParamSchema, ctx.params);
      ctx.status = 202;
      ctx.body = await startImport(ctx.state.service, { media: deps.media, runNow }, id, mediaOf(requiredFile(ctx, 'file')));
    },
  );
  lists.get('/:id/import', async (ctx) => {
    ctx.body = { import: await lastImport(ctx.state.service, parse(idParamSchema, ctx.params).id) };
  });
  lists.get('/:id/import/:importId/invalid', async (ctx) => {
    const { id, importId } = parse(importParamsSchema, ctx.params);
    const text = await invalidRowsCsv(ctx.state.service, id, importId);
    ctx.set('content-disposition', `attachment; filename="linhas_invalidas_${importId}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    // A byte-order mark, so spreadsheet programs read the accents as UTF-8.
    ctx.body = `\ufeff${text}`;
  });
  lists.post('/:id/check', async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    const { all } = parse(checkBodySchema, ctx.request.body ?? {});
    const list = await findList(ctx.state.em, id);
    await requestCheck(deps, runNow, list.companyId, list.id, all);
    ctx.body = await getContactList(ctx.state.service, id);
  });

  const items = new Router<AppState>({ prefix: '/contact-list-items' });
  items.use(deps.auth, planned);
  items.get('/', async (ctx) => {
    ctx.body = await listContactListItems(ctx.state.service, parse(listContactListItemsQuerySchema, ctx.query));
  });
  items.get('/:id', async (ctx) => {
    ctx.body = await getContactListItem(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  items.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await createContactListItem(ctx.state.service, hooks, parse(createContactListItemSchema, ctx.request.body));
  });
  items.put('/:id', async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateContactListItem(ctx.state.service, hooks, id, parse(updateContactListItemSchema, ctx.request.body));
  });
  items.delete('/:id', async (ctx) => {
    await deleteContactListItem(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Contact deleted' };
  });

  return [lists, items];
};
