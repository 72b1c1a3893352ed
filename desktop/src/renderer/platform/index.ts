/** The one place that knows whether the renderer runs inside Electron or in a browser. */
export { isDesktop, hasDesktop } from './desktop-bridge';
export {
  DEFAULT_PREFERENCES,
  chooseServer,
  hasChosenServer,
  loadPreferences,
  savePreference,
  type Preferences,
  type PreferenceKey,
  type ThemeMode,
  type TodoItem,
} from './preferences';
export { refreshTokenStore, sessionHints } from './session-storage';
export {
  notify,
  onNotificationOpen,
  onChatNotificationOpen,
  requestNotificationPermission,
  setUnreadCount,
  setUnreadPart,
  type AppNotification,
} from './notifications';
export { playNotificationSound, unlockSoundOnFirstGesture } from './sound';
export { reloadApp } from './navigation';
