import Router from '@koa/router';
import {
  createFileListSchema,
  FILE_LIST_MAX_OPTIONS,
  FILE_LIST_MEDIA_MAX_BYTES,
  FILE_LIST_MEDIA_TYPES,
  idParamSchema,
  listQuerySchema,
  updateFileListSchema,
  uploadFileListFormSchema,
} from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { formFields, mediaOf, upload, uploadedFiles } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import {
  createFileList,
  deleteFileList,
  getFileList,
  listFileLists,
  updateFileList,
  uploadFileListFiles,
} from './files.service.js';

/**
 * File lists (spec 02 section 7): every user of the company reads them, admins write. There is no bulk
 * DELETE /files (the original's wiped every company's lists, spec 04 section 8).
 */
export const filesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/files' });
  const fDeps = { media: deps.media };

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listFileLists(ctx.state.service, fDeps, parse(listQuerySchema, ctx.query));
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getFileList(ctx.state.service, fDeps, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createFileList(ctx.state.service, fDeps, parse(createFileListSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateFileList(ctx.state.service, fDeps, id, parse(updateFileListSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, adminOnly, async (ctx) => {
    await deleteFileList(ctx.state.service, fDeps, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'File list deleted' };
  });
  router.post(
    '/uploadList/:id',
    deps.auth,
    adminOnly,
    upload({ fields: ['files'], maxFiles: FILE_LIST_MAX_OPTIONS, maxBytes: FILE_LIST_MEDIA_MAX_BYTES, accept: [...FILE_LIST_MEDIA_TYPES] }),
    async (ctx) => {
      const { id } = parse(idParamSchema, ctx.params);
      const form = parse(uploadFileListFormSchema, formFields(ctx));
      ctx.body = await uploadFileListFiles(ctx.state.service, fDeps, id, form, uploadedFiles(ctx, 'files').map(mediaOf));
    },
  );

  return router;
};
