import { create } from 'zustand';
import { DEFAULT_PREFERENCES, savePreference, type PreferenceKey, type Preferences } from '../platform';

export interface PreferencesState extends Preferences {
  /** Whether the stored values have been read (the app renders after). */
  loaded: boolean;
  hydrate(values: Preferences): void;
  /** Changes one preference and stores it (window.desktop or local storage). */
  set<K extends PreferenceKey>(key: K, value: Preferences[K]): void;
}

export const usePreferences = create<PreferencesState>()((set) => ({
  ...DEFAULT_PREFERENCES,
  loaded: false,
  hydrate: (values) => set({ ...values, loaded: true }),
  set: (key, value) => {
    set({ [key]: value } as Partial<PreferencesState>);
    void savePreference(key, value);
  },
}));
