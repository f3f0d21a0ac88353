import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { AdminListPage } from '../admin/AdminListPage';
import { AdminPage } from '../admin/AdminPage';
import { ApiKeysList } from '../admin/accounts/ApiKeysList';
import { TableSettingsPage } from '../admin/tableSettings/TableSettingsPage';
import { UsersList } from '../admin/UsersList';
import { WebhooksPage } from '../admin/webhooks/WebhooksPage';
import { CalendarPage } from '../calendar/CalendarPage';
import { AppLayout } from '../layout/AppLayout';
import { NotFoundPage } from '../layout/NotFoundPage';
import { RouteErrorPage } from '../layout/RouteErrorPage';
import { LiveUpdates } from '../live/LiveUpdates';
import { OwnRequestsPage } from '../requests/OwnRequestsPage';
import { RequestsPage } from '../requests/RequestsPage';
import { LoginPage } from '../session/LoginPage';
import { LogoutPage } from '../session/LogoutPage';
import { RequireSession } from '../session/RequireSession';
import { TablesPage } from '../tables/TablesPage';
import { LoadingState } from '../ui/LoadingState';
import { createLiveCacheUpdates } from './createLiveCacheUpdates';
import { prefetchSession, prefetchTablePage } from './prefetchPage';

/**
 * A data router: the table page needs its navigation blocker (unsaved edits), and its loaders
 * start the page's reads while its code is still arriving (see prefetchTablePage).
 */
export const createAppRouter = (queryClient: QueryClient) =>
  createBrowserRouter([
    { path: '/login', element: <LoginPage />, errorElement: <RouteErrorPage /> },
    { path: '/logout', element: <LogoutPage />, errorElement: <RouteErrorPage /> },
    {
      element: (
        <RequireSession>
          <LiveUpdates reactions={createLiveCacheUpdates}>
            <Outlet />
          </LiveUpdates>
        </RequireSession>
      ),
      errorElement: <RouteErrorPage />,
      loader: () => prefetchSession(queryClient),
      shouldRevalidate: () => false,
      // Shown while a lazily loaded page (the table page) arrives on a first visit.
      hydrateFallbackElement: <LoadingState />,
      children: [
        {
          element: <AppLayout />,
          children: [
            { index: true, element: <Navigate to="/tables" replace /> },
            { path: 'tables', element: <TablesPage /> },
            {
              path: 'tables/:name',
              loader: ({ params, request }) =>
                prefetchTablePage(queryClient, params.name ?? '', new URL(request.url)),
              shouldRevalidate: ({ currentParams, nextParams }) =>
                currentParams.name !== nextParams.name,
              // The data grid is most of the app's code: it loads only with this page.
              lazy: async () => ({ Component: (await import('../table/TablePage')).TablePage }),
            },
            { path: 'admin', element: <AdminPage history="locks" /> },
            { path: 'admin/security', element: <AdminPage history="security" /> },
            {
              path: 'admin/users',
              element: (
                <AdminListPage title="users.title">
                  <UsersList />
                </AdminListPage>
              ),
            },
            {
              path: 'admin/api-keys',
              element: (
                <AdminListPage title="apiKeys.title">
                  <ApiKeysList />
                </AdminListPage>
              ),
            },
            { path: 'admin/table-settings', element: <TableSettingsPage /> },
            { path: 'requests/mine', element: <OwnRequestsPage /> },
            { path: 'calendar', element: <CalendarPage /> },
            { path: 'requests/:id?', element: <RequestsPage /> },
            { path: 'admin/webhooks', element: <WebhooksPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
