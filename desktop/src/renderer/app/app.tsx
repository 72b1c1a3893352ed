import { BrowserRouter } from 'react-router';
import { NotificationRouting } from './notification-routing';
import { AppProviders } from './providers';
import { RealtimeSession } from './realtime-session';
import { AppRoutes } from './routes';

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <RealtimeSession />
        <NotificationRouting />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
