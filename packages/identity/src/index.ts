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
export { API_KEY_PREFIX, type Principal } from './principal';
export {
  readSecurityEvents,
  type SecurityEventFilter,
  type SecurityEventPage,
  type SecurityEventRecord,
} from './readSecurityEvents';
export { roleAtLeast } from './role';
export {
  type RequestOrigin,
  type SecurityAudit,
  type SecurityLogger,
  withSecurityEvents,
} from './securityEvent';
export { findSessionPrincipal, logOut, revokeSession, sessionTimeLeft } from './sessions';
export {
  createUser,
  DEMO_PASSWORD,
  ensureDemoUsers,
  isActiveUser,
  listUsers,
  type UserChange,
  type UserInfo,
  updateUser,
} from './users';
