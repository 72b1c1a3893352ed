/**
 * The connection list's realtime updates, shared by the connections page and the menu's '!' badge:
 * company-{id}-whatsapp replaces, adds or removes a connection; company-{id}-whatsappSession updates
 * its status, QR code, retries and update time.
 */
export interface WhatsappEvent<T extends { id: number }> {
  action: 'create' | 'update' | 'delete' | string;
  whatsapp?: T;
  whatsappId?: number;
}

export interface SessionEvent<T extends { id: number }> {
  action: string;
  session?: Partial<T> & { id: number };
}

export const applyWhatsappEvent = <T extends { id: number }>(list: T[] | undefined, event: WhatsappEvent<T>): T[] | undefined => {
  if (!list) return list;
  if (event.action === 'delete') {
    const id = event.whatsappId ?? event.whatsapp?.id;
    return list.filter((c) => c.id !== id);
  }
  const changed = event.whatsapp;
  if (!changed) return list;
  return list.some((c) => c.id === changed.id)
    ? list.map((c) => (c.id === changed.id ? { ...c, ...changed } : c))
    : [...list, changed];
};

export const applySessionEvent = <T extends { id: number }>(list: T[] | undefined, event: SessionEvent<T>): T[] | undefined => {
  const session = event.session;
  if (!list || !session) return list;
  return list.map((c) => (c.id === session.id ? { ...c, ...session } : c));
};
