import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
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

/** Admin-only pages (the dashboard at /): anyone else goes to /tickets. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const isAdmin = useAuthStore((s) => s.user?.profile === 'admin');
  return isAdmin ? <>{children}</> : <Navigate to={AFTER_LOGIN_PATH} replace />;
}
