import type { AppModule } from '../app-module.js';
import './files.events.js';
import { FileListSchema, FileOptionSchema } from './file-list.entity.js';
import { registerFilesRealtime } from './files.realtime.js';
import { filesRoutes } from './files.routes.js';

/** The file-lists module's contribution to the app (see modules/app-module.ts). */
export const filesModule: AppModule = {
  name: 'files',
  entities: [FileListSchema, FileOptionSchema],
  routes: (deps) => [filesRoutes(deps)],
  realtime: registerFilesRealtime,
};
