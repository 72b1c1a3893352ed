import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onNotificationOpen } from '../platform';

/** A click on a new-message notification (desktop or browser) opens its ticket. */
export function NotificationRouting() {
  const navigate = useNavigate();
  useEffect(() => onNotificationOpen((ticketUuid) => navigate(`/tickets/${ticketUuid}`)), [navigate]);
  return null;
}
