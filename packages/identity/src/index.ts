export {
  type ApiKeyInfo,
  createApiKey,
  findApiKeyPrincipal,
  listApiKeys,
  revokeApiKey,
} from './apiKeys';
export { IdentityError, type IdentityErrorCode } from './identityError';
export { logIn } from './logIn';
export {
  createLoginThrottle,
  DEFAULT_LOGIN_THROTTLE,
  type LoginThrottle,
  type LoginThrottleOptions,
} from './loginThrottle';
export {
  type PendingSignIn,
  signInStarts,
  takeSignIn,
} from './oidc/pendingSignIns';
export {
  groupsOfClaim,
  parseRoleMap,
  type RoleMap,
  roleForGroups,
} from './oidc/roleMap';
export { type OidcAccount, recordRefusedSignIn, signInWithOidc } from './oidc/signIn';
export {
  createSignInRateLimit,
  DEFAULT_SIGN_IN_RATE_LIMIT,
  type SignInRateLimit,
  type SignInRateLimitOptions,
  type SignInRoute,
} from './oidc/signInRateLimit';
export { SignInRefused } from './oidc/signInRefused';
export { API_KEY_PREFIX, type Principal } from './principal';
export {
  readSecurityEvents,
  type SecurityEventFilter,
  type SecurityEventPage,
  type SecurityEventRecord,
} from './readSecurityEvents';
export { roleAtLeast } from './role';
export {
  LOGIN_FAILURES,
  type LoginFailure,
  type RequestOrigin,
  type SecurityAudit,
  type SecurityLogger,
  withSecurityEvents,
} from './securityEvent';
export { type ArchivedSecurityEvent, readSecurityEventArchive } from './securityEventArchive';
export { purgeSecurityEvents } from './securityEventRetention';
export { findSessionPrincipal, logOut, revokeSession, sessionTimeLeft } from './sessions';
export {
  createUser,
  DEMO_PASSWORD,
  ensureDemoUsers,
  isActiveUser,
  listUsers,
  USER_INFO,
  type UserChange,
  type UserInfo,
  updateUser,
} from './users';
