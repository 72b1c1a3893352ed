import type { AppModule } from '../app-module.js';
import './settings.events.js';
import { registerSettingsRealtime } from './settings.realtime.js';
import { SettingSchema } from './setting.entity.js';
import { settingsRoutes } from './settings.routes.js';

/** The settings module's contribution to the app (see modules/app-module.ts). */
export const settingsModule: AppModule = {
  name: 'settings',
  entities: [SettingSchema],
  routes: (deps) => [settingsRoutes(deps)],
  realtime: registerSettingsRealtime,
};
