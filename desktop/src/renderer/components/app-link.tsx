import type { MouseEvent, ReactNode } from 'react';
import { Link } from '@fluentui/react-components';
import { useNavigate } from 'react-router';

/** A Fluent link that navigates inside the app (client-side) and still works with open-in-new-tab. */
export function AppLink({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <Link href={to} onClick={onClick}>
      {children}
    </Link>
  );
}
