import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onChatNotificationOpen, onNotificationOpen } from '../platform';

/** A click on a new-message notification (desktop or browser) opens its ticket, or its internal chat. */
export function NotificationRouting() {
  const navigate = useNavigate();
  useEffect(() => onNotificationOpen((ticketUuid) => navigate(`/tickets/${ticketUuid}`)), [navigate]);
  useEffect(() => onChatNotificationOpen((chatUuid) => navigate(`/chats/${chatUuid}`)), [navigate]);
  return null;
}
