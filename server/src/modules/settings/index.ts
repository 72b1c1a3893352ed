import type { AppModule } from '../module.js';
import './settings.events.js';
import { registerSettingsRealtime } from './settings.realtime.js';
import { SettingSchema } from './setting.entity.js';
import { settingsRoutes } from './settings.routes.js';

/** The settings module's contribution to the app (see modules/module.ts). */
export const settingsModule: AppModule = {
  name: 'settings',
  entities: [SettingSchema],
  routes: (deps) => [settingsRoutes(deps)],
  realtime: registerSettingsRealtime,
};

// What other modules may use of this one (they import it only from here).
export { ensureDefaultSettings, getSettingValue, visibleSettings } from './settings.service.js';
