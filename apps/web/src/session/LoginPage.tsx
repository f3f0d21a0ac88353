import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { GraphqlRequestError } from '../api/GraphqlRequestError';
import { graphqlRequest } from '../api/graphqlRequest';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { LoadingState } from '../ui/LoadingState';
import { safeNext } from './safeNext';
import { loginMutation } from './sessionOperations';
import { useAuthProviders } from './useAuthProviders';
import { sessionOptions, useSession } from './useSession';

export function LoginPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const session = useSession();
  const providers = useAuthProviders();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const next = safeNext(searchParams.get('next'));

  const login = useMutation({
    mutationFn: () => graphqlRequest(loginMutation, { username: username.trim(), password }),
    onSuccess: async ({ login: user }) => {
      // Whatever was cached belonged to the previous caller.
      queryClient.removeQueries();
      queryClient.setQueryData(sessionOptions.queryKey, user);
      await navigate(next, { replace: true });
    },
  });

  if (session.data && !login.isPending) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };
  const signInError = searchParams.get('signInError');
  const oidc = providers.data?.oidc ?? null;
  // Until the server says otherwise (or if it cannot be asked), the password form is offered.
  const passwordLogin = providers.data?.passwordLogin ?? true;

  const passwordForm = (
    <form className="login-form" onSubmit={submit}>
      <label className="field">
        <span>{t('login.username')}</span>
        <input
          name="username"
          autoComplete="username"
          required
          // biome-ignore lint/a11y/noAutofocus: the login form is the page's only purpose
          autoFocus={!oidc}
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
      <button
        type="submit"
        className={`button wide${oidc ? '' : ' primary'}`}
        disabled={login.isPending}
      >
        {login.isPending ? t('login.signingIn') : t('login.submit')}
      </button>
    </form>
  );

  return (
    <main className="login-page">
      <section className="login-card" aria-labelledby="login-title">
        <div className="login-brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>tablelock</span>
        </div>
        <h1 id="login-title">{t('login.title')}</h1>
        <p className="muted">{t('login.subtitle')}</p>
        {signInError && (
          <p className="form-error" role="alert" data-testid="sign-in-error">
            {t(`login.signInErrors.${isSignInError(signInError) ? signInError : 'other'}`)}
          </p>
        )}
        {providers.isPending ? (
          <LoadingState />
        ) : (
          <>
            {oidc && (
              <a className="button primary wide" href={oidc.signInUrl}>
                {t('login.signInWith', { name: oidc.name })}
              </a>
            )}
            {oidc && passwordLogin && (
              <p className="login-divider" aria-hidden="true">
                {t('login.or')}
              </p>
            )}
            {passwordLogin ? (
              passwordForm
            ) : (
              <details className="login-break-glass">
                <summary>{t('login.breakGlass')}</summary>
                <p className="muted">{t('login.breakGlassHint')}</p>
                {passwordForm}
              </details>
            )}
          </>
        )}
        <div className="login-footer">
          <LanguageSwitch />
        </div>
      </section>
    </main>
  );
}

/** Why the server sent the browser back from a single sign-on (`?signInError=`), as it says it. */
const SIGN_IN_ERRORS = [
  'state_mismatch',
  'sign_in_expired',
  'provider_error',
  'code_refused',
  'nonce_mismatch',
  'wrong_audience',
  'token_expired',
  'bad_signature',
  'invalid_token',
  'username_taken',
  'no_username',
  'no_role',
  'user_disabled',
  'sign_in_failed',
] as const;

const isSignInError = (code: string): code is (typeof SIGN_IN_ERRORS)[number] =>
  (SIGN_IN_ERRORS as readonly string[]).includes(code);

function loginErrorMessage(error: Error, t: TFunction): string {
  if (error instanceof GraphqlRequestError) {
    if (error.code === 'UNAUTHENTICATED') return t('login.wrongCredentials');
    if (error.code === 'PASSWORD_LOGIN_DISABLED') return t('login.passwordLoginDisabled');
    if (error.code === 'TOO_MANY_REQUESTS') {
      const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
      return t('login.tooManyAttempts', { count: minutes });
    }
  }
  return t('errors.network');
}
