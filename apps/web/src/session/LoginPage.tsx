import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { GraphqlRequestError } from '../api/GraphqlRequestError';
import { graphqlRequest } from '../api/graphqlRequest';
import { SESSION_QUERY_KEY } from '../api/queryKeys';
import { LanguageSwitch } from '../layout/LanguageSwitch';
import { loginMutation } from './sessionOperations';
import { useSession } from './useSession';

/** Only paths inside this app: `next` comes from the URL and must not lead elsewhere. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/tables';
}

export function LoginPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const session = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const next = safeNext(searchParams.get('next'));

  const login = useMutation({
    mutationFn: () => graphqlRequest(loginMutation, { username: username.trim(), password }),
    onSuccess: async ({ login: user }) => {
      // Whatever was cached belonged to the previous caller.
      queryClient.removeQueries();
      queryClient.setQueryData(SESSION_QUERY_KEY, user);
      await navigate(next, { replace: true });
    },
  });

  if (session.data && !login.isPending) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  return (
    <main className="login-page">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <div className="login-brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>tablelock</span>
        </div>
        <h1 id="login-title">{t('login.title')}</h1>
        <p className="muted">{t('login.subtitle')}</p>
        <label className="field">
          <span>{t('login.username')}</span>
          <input
            name="username"
            autoComplete="username"
            required
            // biome-ignore lint/a11y/noAutofocus: the login form is the page's only purpose
            autoFocus
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('login.password')}</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {login.error && (
          <p className="form-error" role="alert">
            {loginErrorMessage(login.error, t)}
          </p>
        )}
        <button type="submit" className="button primary wide" disabled={login.isPending}>
          {login.isPending ? t('login.signingIn') : t('login.submit')}
        </button>
        <div className="login-footer">
          <LanguageSwitch />
        </div>
      </form>
    </main>
  );
}

function loginErrorMessage(error: Error, t: ReturnType<typeof useTranslation>['t']): string {
  if (error instanceof GraphqlRequestError) {
    if (error.code === 'UNAUTHENTICATED') return t('login.wrongCredentials');
    if (error.code === 'TOO_MANY_REQUESTS') {
      const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
      return t('login.tooManyAttempts', { count: minutes });
    }
  }
  return t('errors.network');
}
