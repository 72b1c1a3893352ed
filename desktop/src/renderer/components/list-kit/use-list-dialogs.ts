import { useState } from 'react';

/**
 * Which dialog of a list page is open: the form (`editing`: 'new' to add, a record to edit) and the
 * delete confirmation (`deleting`).
 */
export function useListDialogs<T>() {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  return {
    editing,
    /** The record being edited, or undefined when adding. */
    edited: editing === 'new' || editing === null ? undefined : editing,
    openAdd: () => setEditing('new'),
    openEdit: (item: T) => setEditing(item),
    closeForm: () => setEditing(null),
    deleting,
    askDelete: (item: T) => setDeleting(item),
    closeDelete: () => setDeleting(null),
  };
}
