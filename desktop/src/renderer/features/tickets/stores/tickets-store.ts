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

/** The ticket manager's tabs: open (with its sub-tabs assigned and waiting), closed, search. */
export type MainTab = 'open' | 'closed' | 'search';
export type SubTab = 'open' | 'pending';

interface TicketsUiState {
  tab: MainTab;
  subTab: SubTab;
  setTab(tab: MainTab): void;
  setSubTab(subTab: SubTab): void;
  /** The assigned list (after accept or reopen: the ticket is the user's now, spec 01 section 4). */
  showAssigned(): void;
  /** The queue filter of every list; null until the user picks (then the user's own queues). */
  selectedQueueIds: number[] | null;
  showAll: boolean;
  setSelectedQueueIds(ids: number[]): void;
  setShowAll(value: boolean): void;
}

export const useTicketsUi = create<TicketsUiState>()((set) => ({
  tab: 'open',
  subTab: 'open',
  setTab: (tab) => set({ tab }),
  setSubTab: (subTab) => set({ subTab }),
  showAssigned: () => set({ tab: 'open', subTab: 'open' }),
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
  useTicketsUi.setState({ selectedQueueIds: null, showAll: false, tab: 'open', subTab: 'open' });
});
