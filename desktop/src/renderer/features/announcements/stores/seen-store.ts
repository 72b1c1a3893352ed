import { create } from 'zustand';

/** Which announcements each user has seen in the bell, kept on this device across sessions. */
const keyOf = (userId: number) => `atrium.announcements.seen.${userId}`;

export const readSeen = (userId: number): number[] => {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(keyOf(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === 'number') : [];
  } catch {
    return [];
  }
};

interface SeenState {
  /** Loaded on the first markSeen; until then readSeen(userId) gives the stored ids. */
  byUser: Record<number, number[]>;
  /** The bell was opened: everything it lists now counts as seen; ids no longer listed are forgotten. */
  markSeen(userId: number, ids: number[]): void;
}

export const useSeenAnnouncements = create<SeenState>()((set) => ({
  byUser: {},
  markSeen: (userId, ids) => {
    try {
      globalThis.localStorage?.setItem(keyOf(userId), JSON.stringify(ids));
    } catch {
      // Storage full or unavailable: remembered for this run only.
    }
    set((s) => ({ byUser: { ...s.byUser, [userId]: ids } }));
  },
}));
