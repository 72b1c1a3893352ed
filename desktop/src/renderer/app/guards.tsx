import { useEffect, useRef, type ReactNode } from 'react';
import type { PlanFeature } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useCompanyPlan } from '../api/company';
import { LoadingScreen } from '../components/loading-screen';
import { toast } from '../components/toasts';
import { useAuthStore } from '../stores/auth-store';

/** Where a fresh login lands (spec 01 section 2). */
export const AFTER_LOGIN_PATH = '/tickets';

/** Private routes: a guest goes to /login; while the session is being restored, wait. */
export function RequireAuth() {
  const status = useAuthStore((s) => s.status);
  const location = useLocation();
  if (status === 'restoring') return <LoadingScreen />;
  if (status !== 'authenticated') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/**
 * Public routes (/login, /signup, /forgetpsw): a logged-in user goes to / (or to /tickets right after
 * logging in on this screen).
 */
export function PublicOnly() {
  const status = useAuthStore((s) => s.status);
  const origin = useAuthStore((s) => s.origin);
  if (status === 'restoring') return <LoadingScreen />;
  if (status === 'authenticated') return <Navigate to={origin === 'login' ? AFTER_LOGIN_PATH : '/'} replace />;
  return <Outlet />;
}

/** Sends the user to /tickets, saying why unless `silent` (an agent landing on / is not an intrusion). */
function Denied({ silent }: { silent: boolean }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  // Once, even when an effect runs twice (StrictMode).
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    if (!silent) toast.error(t('access.denied'));
    void navigate(AFTER_LOGIN_PATH, { replace: true });
  }, [navigate, silent, t]);
  return null;
}

/**
 * Admin-only pages (the dashboard and the admin part of the menu): anyone else goes to /tickets with the
 * "access not allowed" notice, as the menu hides them (spec 01 sections 2 and 6). The dashboard at /
 * sends agents away silently: it is where they land.
 */
export function AdminOnly({ children, silent = false }: { children: ReactNode; silent?: boolean }) {
  const isAdmin = useAuthStore((s) => s.user?.profile === 'admin');
  return isAdmin ? <>{children}</> : <Denied silent={silent} />;
}

/** How long the plan refusal's notice shows before the page goes (spec 02 section 8). */
export const PLAN_REDIRECT_MS = 1000;

/** The plan lacks the page's feature: an error notice, then / a second later. */
function PlanDenied() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const told = useRef(false);
  useEffect(() => {
    if (!told.current) {
      told.current = true;
      toast.error(t('access.planDenied'));
    }
    const timer = setTimeout(() => void navigate('/', { replace: true }), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, t]);
  return null;
}

/**
 * Pages a plan feature opens (the messages API: useExternalApi): without the flag the user is told and
 * sent to / (spec 02 sections 6 and 8); the server refuses the calls as well. While the plan is loading,
 * wait; if it cannot be read, the page shows and the server's answers say what is allowed.
 */
export function RequirePlan({ feature, children }: { feature: PlanFeature; children: ReactNode }) {
  const plan = useCompanyPlan();
  if (plan.status === 'loading') return <LoadingScreen />;
  if (plan.data && !plan.data.plan[feature]) return <PlanDenied />;
  return <>{children}</>;
}
