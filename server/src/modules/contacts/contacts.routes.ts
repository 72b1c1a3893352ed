import path from 'node:path';
import Router from '@koa/router';
import {
  CONTACT_IMPORT_MAX_BYTES,
  contactUploadSchema,
  createContactSchema,
  idParamSchema,
  listAllContactsQuerySchema,
  listContactsQuerySchema,
  updateContactSchema,
} from '@atrium/shared';
import { AppError } from '../../errors.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { requiredFile, upload } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { importContactRows, readFirstSheet } from './contact-import.js';
import {
  createContact,
  deleteContact,
  getContact,
  listAllContacts,
  listContacts,
  updateContact,
} from './contacts.service.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const contactsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/contacts' });
  const contactDeps = { channels: deps.channels, media: deps.media };

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listContacts(ctx.state.service, parse(listContactsQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, async (ctx) => {
    const { companyId } = parse(listAllContactsQuerySchema, ctx.query);
    ctx.body = await listAllContacts(ctx.state.service, companyId);
  });
  // The client's reading of an .xlsx sheet, as rows.
  router.post('/upload', deps.auth, async (ctx) => {
    ctx.body = await importContactRows(ctx.state.service, parse(contactUploadSchema, ctx.request.body));
  });
  // The .xlsx file itself (spec 01 section 5: .xlsx only).
  router.post(
    '/import',
    deps.auth,
    // Some browsers label a workbook as a generic binary; its name and content decide then.
    upload({ fields: ['file'], maxFiles: 1, maxBytes: CONTACT_IMPORT_MAX_BYTES, accept: [XLSX_MIME, 'application/octet-stream'] }),
    async (ctx) => {
      const file = requiredFile(ctx, 'file');
      if (path.extname(file.originalname).toLowerCase() !== '.xlsx') {
        throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { expected: '.xlsx' });
      }
      ctx.body = await importContactRows(ctx.state.service, await readFirstSheet(file.buffer));
    },
  );
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getContact(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createContact(ctx.state.service, contactDeps, parse(createContactSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateContact(ctx.state.service, contactDeps, id, parse(updateContactSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, async (ctx) => {
    await deleteContact(ctx.state.service, contactDeps, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Contact deleted' };
  });

  return router;
};
