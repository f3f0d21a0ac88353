import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { roleAtLeast } from '../session/roles';
import { useSession } from '../session/useSession';
import { usePageTitle } from '../ui/usePageTitle';

/** A page of the admin area with one list (users, API keys): its heading, for admins only. */
export function AdminListPage({
  title,
  children,
}: {
  title: 'users.title' | 'apiKeys.title';
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { data: user } = useSession();
  usePageTitle(t(title));
  if (!user) return null;
  if (!roleAtLeast(user.role, 'admin')) return <Navigate to="/tables" replace />;
  return (
    <section className="page">
      <div className="page-header">
        <div>
          <h1>{t(title)}</h1>
        </div>
      </div>
      {children}
    </section>
  );
}
