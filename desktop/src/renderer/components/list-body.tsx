import type { ReactNode } from 'react';
import { Spinner } from '@fluentui/react-components';
import { EmptyState } from './empty-state';

export interface ListBodyProps {
  loading: boolean;
  empty: boolean;
  /** What the empty state says. */
  emptyTitle: ReactNode;
  children: ReactNode;
}

/** A list's body: a spinner while it loads, the empty state when there is nothing, else the list. */
export function ListBody({ loading, empty, emptyTitle, children }: ListBodyProps) {
  if (loading) return <Spinner />;
  if (empty) return <EmptyState title={emptyTitle} />;
  return <>{children}</>;
}
