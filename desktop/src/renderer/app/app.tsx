import { BrowserRouter } from 'react-router';
import { installPopGuard } from '../lib/pop-guard';
import { NotificationRouting } from './notification-routing';
import { AppProviders } from './providers';
import { RealtimeSession } from './realtime-session';
import { AppRoutes } from './routes';

// Before the router adds its own listener: a page with unsaved edits hears back and forward first.
installPopGuard();

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
