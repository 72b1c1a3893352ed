import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { usePreferences } from '../stores/preferences-store';
import type { PlanFeature } from '@atrium/shared';
import { AdminOnly, PublicOnly, RequireAuth, RequirePlan } from './guards';

type Page = LazyExoticComponent<ComponentType>;
/** The layout (menu, top bar, bells) is only for the signed-in: the login screen does not load it. */
const MainLayout = lazy(() => import('./layout/main-layout').then((m) => ({ default: m.MainLayout })));

/** Every page is its own chunk, loaded when its route is first opened. */
const page = (load: () => Promise<{ default: ComponentType }>): Page => lazy(load);

const NotFoundPage = page(() => import('../components/not-found-page'));

export interface AppRoute {
  path: string;
  Page: Page;
  /** Exists only when the stored cshow flag does (spec 01 section 2). */
  cshow?: boolean;
  /**
   * Admins only (the dashboard and the menu's admin section); others go to /tickets. /announcements is
   * not marked: its page sends non-super users to / itself (spec 02 section 8).
   */
  adminOnly?: boolean;
  /** Shown only when the company's plan has this feature; otherwise a notice and / (spec 02 section 8). */
  plan?: PlanFeature;
}

/** Public routes: a logged-in user is sent to /. */
export const PUBLIC_ROUTES: AppRoute[] = [
  { path: '/login', Page: page(() => import('../features/auth/components/login-page')) },
  { path: '/signup', Page: page(() => import('../features/auth/components/signup-page')) },
  { path: '/forgetpsw', Page: page(() => import('../features/auth/components/forgot-password-page')) },
];

/** Private routes of spec 01 section 2 (and spec 02's), inside the main layout. */
export const PRIVATE_ROUTES: AppRoute[] = [
  { path: '/', Page: page(() => import('../features/dashboard/components/dashboard-page')), adminOnly: true },
  { path: '/tickets/:ticketId?', Page: page(() => import('../features/tickets/components/tickets-page')) },
  { path: '/connections', Page: page(() => import('../features/connections/components/connections-page')), adminOnly: true },
  { path: '/quick-messages', Page: page(() => import('../features/quick-messages/components/quick-messages-page')) },
  { path: '/todolist', Page: page(() => import('../features/todolist/components/todolist-page')) },
  { path: '/schedules', Page: page(() => import('../features/schedules/components/schedules-page')) },
  { path: '/tags', Page: page(() => import('../features/tags/components/tags-page')) },
  { path: '/contacts', Page: page(() => import('../features/contacts/components/contacts-page')) },
  { path: '/helps', Page: page(() => import('../features/helps/components/helps-page')) },
  { path: '/users', Page: page(() => import('../features/users/components/users-page')), adminOnly: true },
  { path: '/files', Page: page(() => import('../features/files/components/files-page')), adminOnly: true },
  { path: '/prompts', Page: page(() => import('../features/prompts/components/prompts-page')), adminOnly: true, plan: 'useOpenAi' },
  {
    path: '/queue-integration',
    Page: page(() => import('../features/queue-integration/components/queue-integration-page')),
    adminOnly: true,
    plan: 'useIntegrations',
  },
  {
    path: '/messages-api',
    Page: page(() => import('../features/messages-api/components/messages-api-page')),
    adminOnly: true,
    plan: 'useExternalApi',
  },
  { path: '/settings', Page: page(() => import('../features/settings/components/settings-page')), adminOnly: true },
  { path: '/kanban', Page: page(() => import('../features/kanban/components/kanban-page')) },
  { path: '/financeiro', Page: page(() => import('../features/financeiro/components/financeiro-page')), adminOnly: true },
  { path: '/queues', Page: page(() => import('../features/queues/components/queues-page')), adminOnly: true },
  { path: '/announcements', Page: page(() => import('../features/announcements/components/announcements-page')), },
  { path: '/subscription', Page: page(() => import('../features/subscription/components/subscription-page')) },
  { path: '/chats/:id?', Page: page(() => import('../features/chats/components/chats-page')) },
  { path: '/contact-lists', Page: page(() => import('../features/contact-lists/components/contact-lists-page')), cshow: true, adminOnly: true },
  {
    path: '/contact-lists/:contactListId/contacts',
    Page: page(() => import('../features/contact-lists/components/contact-list-items-page')),
    cshow: true,
    adminOnly: true,
  },
  { path: '/campaigns', Page: page(() => import('../features/campaigns/components/campaigns-page')), cshow: true, adminOnly: true },
  {
    path: '/campaign/:campaignId/report',
    Page: page(() => import('../features/campaigns/components/campaign-report-page')),
    cshow: true,
    adminOnly: true,
  },
  { path: '/campaigns-config', Page: page(() => import('../features/campaigns/components/campaigns-config-page')), cshow: true, adminOnly: true },
  { path: '/phrase-lists', Page: page(() => import('../features/phrase-lists/components/phrase-lists-page')), cshow: true },
  { path: '/flowbuilders', Page: page(() => import('../features/flowbuilder/components/flowbuilders-page')), cshow: true },
  { path: '/flowbuilder/:id?', Page: page(() => import('../features/flowbuilder/components/flowbuilder-page')), cshow: true },
];

/** The route table: guards, layout and pages. Unknown paths (and hidden cshow routes) lead to /. */
export function AppRoutes() {
  const cshow = usePreferences((s) => s.cshow);
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        {PUBLIC_ROUTES.map(({ path, Page }) => (
          <Route
            key={path}
            path={path}
            element={
              <Suspense fallback={<LoadingScreen />}>
                <Page />
              </Suspense>
            }
          />
        ))}
      </Route>
      <Route element={<RequireAuth />}>
        <Route
          element={
            <Suspense fallback={<LoadingScreen />}>
              <MainLayout />
            </Suspense>
          }
        >
          {/* Pages behind the cshow flag, without it: the user lands on / (spec 01 section 2). */}
          {PRIVATE_ROUTES.filter((route) => route.cshow && !cshow).map(({ path }) => (
            <Route key={path} path={path} element={<Navigate to="/" replace />} />
          ))}
          {PRIVATE_ROUTES.filter((route) => !route.cshow || cshow).map(({ path, Page, adminOnly, plan }) => {
            const page = plan ? (
              <RequirePlan feature={plan}>
                <Page />
              </RequirePlan>
            ) : (
              <Page />
            );
            return <Route key={path} path={path} element={adminOnly ? <AdminOnly silent={path === '/'}>{page}</AdminOnly> : page} />;
          })}
          <Route
            path="*"
            element={
              <Suspense fallback={<LoadingScreen />}>
                <NotFoundPage />
              </Suspense>
            }
          />
        </Route>
      </Route>
    </Routes>
  );
}
