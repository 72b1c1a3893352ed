import type { TodoItem } from '../../../platform';

const newId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Adds an entry; blank text is ignored (the list comes back unchanged). */
export const addTodo = (list: readonly TodoItem[], text: string, now = new Date()): TodoItem[] => {
  const trimmed = text.trim();
  if (!trimmed) return [...list];
  const at = now.toISOString();
  return [...list, { id: newId(), text: trimmed, createdAt: at, updatedAt: at }];
};

/** Changes an entry's text (updatedAt moves); blank text is ignored. */
export const editTodo = (list: readonly TodoItem[], id: string, text: string, now = new Date()): TodoItem[] => {
  const trimmed = text.trim();
  if (!trimmed) return [...list];
  return list.map((item) => (item.id === id ? { ...item, text: trimmed, updatedAt: now.toISOString() } : item));
};

export const removeTodo = (list: readonly TodoItem[], id: string): TodoItem[] => list.filter((item) => item.id !== id);
