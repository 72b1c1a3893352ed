import { createContext, useContext, type ComponentType } from 'react';

/**
 * What one feature shows of another without importing it (features never import each other): app/
 * fills these slots with the other feature's component; a feature reads one with useFeatureSlot and does
 * without when it is empty.
 */
export interface FeatureSlots {
  /** A new scheduled message for this contact, in a dialog (the schedules feature's). */
  scheduleDialog?: ComponentType<{ contactId: number; onClose: () => void }>;
  /** The flows that ran on a ticket, step by step (the flowbuilder feature's; admins). */
  flowLogDialog?: ComponentType<{ ticketId: number; onClose: () => void }>;
}

const SlotsContext = createContext<FeatureSlots>({});

export const FeatureSlotsProvider = SlotsContext.Provider;

export const useFeatureSlot = <K extends keyof FeatureSlots>(key: K): FeatureSlots[K] => useContext(SlotsContext)[key];
