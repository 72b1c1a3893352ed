import { create } from 'zustand';
import { onSessionEnd } from '../../../api/session';

const KEY = 'atrium.tickets.selectedQueues';

const read = (): number[] | null => {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === 'number') : null;
  } catch {
    return null;
  }
};

interface TicketsUiState {
  /** The queue filter of every list; null until the user picks (then the user's own queues). */
  selectedQueueIds: number[] | null;
  showAll: boolean;
  setSelectedQueueIds(ids: number[]): void;
  setShowAll(value: boolean): void;
}

export const useTicketsUi = create<TicketsUiState>()((set) => ({
  selectedQueueIds: read(),
  showAll: false,
  setSelectedQueueIds: (ids) => {
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(ids));
    } catch {
      // Storage full or unavailable: the choice lasts for this session.
    }
    set({ selectedQueueIds: ids });
  },
  setShowAll: (showAll) => set({ showAll }),
}));

onSessionEnd(() => {
  try {
    globalThis.localStorage?.removeItem(KEY);
  } catch {
    // ignore
  }
  useTicketsUi.setState({ selectedQueueIds: null, showAll: false });
});
