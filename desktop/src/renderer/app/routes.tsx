import { Suspense, type ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { loadNamespaces } from '../i18n';
import { useAuthStore } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';
import type { PlanFeature } from '@atrium/shared';
import { AdminOnly, PublicOnly, RequireAuth, RequirePlan } from './guards';
import { lazyComponent, type LazyComponent } from './lazy-component';

/** A lazy page, and a way to start fetching it before it is rendered. */
type Page = LazyComponent & { namespace?: string };

/**
 * The layout (menu, top bar, bells) is only for the signed-in: the login screen does not load it. It comes
 * with the strings of the bells it shows.
 */
const MainLayout = lazyComponent(
  () => import('./layout/main-layout').then((layout) => ({ default: layout.MainLayout })),
  () => loadNamespaces(['announcements', 'chats', 'notifications']),
);

/**
 * Every page is its own chunk, loaded when its route is first opened, together with its feature's strings
 * in the current language (the namespace is the feature folder's name), so the page does not wait for them
 * after it arrives.
 */
const page = (load: () => Promise<{ default: ComponentType }>, namespace?: string): Page =>
  Object.assign(lazyComponent(load, namespace ? () => loadNamespaces(namespace) : undefined), { namespace });

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
  { path: '/login', Page: page(() => import('../features/auth/components/login-page'), 'auth') },
  { path: '/signup', Page: page(() => import('../features/auth/components/signup-page'), 'auth') },
  { path: '/forgetpsw', Page: page(() => import('../features/auth/components/forgot-password-page'), 'auth') },
];

/** Private routes of spec 01 section 2 (and spec 02's), inside the main layout. */
export const PRIVATE_ROUTES: AppRoute[] = [
  { path: '/', Page: page(() => import('../features/dashboard/components/dashboard-page'), 'dashboard'), adminOnly: true },
  { path: '/tickets/:ticketId?', Page: page(() => import('../features/tickets/components/tickets-page'), 'tickets') },
  { path: '/connections', Page: page(() => import('../features/connections/components/connections-page'), 'connections'), adminOnly: true },
  { path: '/quick-messages', Page: page(() => import('../features/quick-messages/components/quick-messages-page'), 'quick-messages') },
  { path: '/todolist', Page: page(() => import('../features/todolist/components/todolist-page'), 'todolist') },
  { path: '/schedules', Page: page(() => import('../features/schedules/components/schedules-page'), 'schedules') },
  { path: '/tags', Page: page(() => import('../features/tags/components/tags-page'), 'tags') },
  { path: '/contacts', Page: page(() => import('../features/contacts/components/contacts-page'), 'contacts') },
  { path: '/helps', Page: page(() => import('../features/helps/components/helps-page'), 'helps') },
  { path: '/users', Page: page(() => import('../features/users/components/users-page'), 'users'), adminOnly: true },
  { path: '/files', Page: page(() => import('../features/files/components/files-page'), 'files'), adminOnly: true },
  { path: '/prompts', Page: page(() => import('../features/prompts/components/prompts-page'), 'prompts'), adminOnly: true, plan: 'useOpenAi' },
  {
    path: '/queue-integration',
    Page: page(() => import('../features/queue-integration/components/queue-integration-page'), 'queue-integration'),
    adminOnly: true,
    plan: 'useIntegrations',
  },
  {
    path: '/messages-api',
    Page: page(() => import('../features/messages-api/components/messages-api-page'), 'messages-api'),
    adminOnly: true,
    plan: 'useExternalApi',
  },
  { path: '/settings', Page: page(() => import('../features/settings/components/settings-page'), 'settings'), adminOnly: true },
  { path: '/kanban', Page: page(() => import('../features/kanban/components/kanban-page'), 'kanban') },
  { path: '/financeiro', Page: page(() => import('../features/financeiro/components/financeiro-page'), 'financeiro'), adminOnly: true },
  { path: '/queues', Page: page(() => import('../features/queues/components/queues-page'), 'queues'), adminOnly: true },
  { path: '/announcements', Page: page(() => import('../features/announcements/components/announcements-page'), 'announcements'), },
  { path: '/subscription', Page: page(() => import('../features/subscription/components/subscription-page'), 'subscription') },
  { path: '/chats/:id?', Page: page(() => import('../features/chats/components/chats-page'), 'chats') },
  { path: '/contact-lists', Page: page(() => import('../features/contact-lists/components/contact-lists-page'), 'contact-lists'), cshow: true, adminOnly: true },
  {
    path: '/contact-lists/:contactListId/contacts',
    Page: page(() => import('../features/contact-lists/components/contact-list-items-page'), 'contact-lists'),
    cshow: true,
    adminOnly: true,
  },
  { path: '/campaigns', Page: page(() => import('../features/campaigns/components/campaigns-page'), 'campaigns'), cshow: true, adminOnly: true },
  {
    path: '/campaign/:campaignId/report',
    Page: page(() => import('../features/campaigns/components/campaign-report-page'), 'campaigns'),
    cshow: true,
    adminOnly: true,
  },
  { path: '/campaigns-config', Page: page(() => import('../features/campaigns/components/campaigns-config-page'), 'campaigns'), cshow: true, adminOnly: true },
  { path: '/phrase-lists', Page: page(() => import('../features/phrase-lists/components/phrase-lists-page'), 'phrase-lists'), cshow: true },
  { path: '/flowbuilders', Page: page(() => import('../features/flowbuilder/components/flowbuilders-page'), 'flowbuilder'), cshow: true },
  { path: '/flowbuilder/:id?', Page: page(() => import('../features/flowbuilder/components/flowbuilder-page'), 'flowbuilder'), cshow: true },
];

/**
 * The public page at this address (login, signup, password), so the start fetches it (chunk and strings)
 * alongside the common strings instead of after the first render. Private pages wait for the session (a
 * guest is sent to /login).
 */
export const publicPageAt = (pathname: string): Page | undefined => PUBLIC_ROUTES.find(({ path }) => matchPath(path, pathname))?.Page;

/**
 * For a device with a stored session, started while the session is refreshed (`restored`): the layout and
 * the private page at this address (chunks and strings), so they render as soon as the session is back
 * instead of being fetched after it. An admin-only page waits to know who is back: an agent at / is sent to
 * /tickets and would fetch the dashboard for nothing.
 */
export const preloadPrivatePageAt = (pathname: string, restored: Promise<boolean>): Promise<unknown> => {
  const route = PRIVATE_ROUTES.find(({ path }) => matchPath(path, pathname));
  const page = route?.adminOnly
    ? restored.then((back) => (back && useAuthStore.getState().user?.profile === 'admin' ? route.Page.preload() : undefined))
    : route?.Page.preload();
  return Promise.all([MainLayout.preload(), page]);
};

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
