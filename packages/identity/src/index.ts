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
export type { Principal } from './principal';
export { roleAtLeast } from './role';
export { findSessionPrincipal, revokeSession } from './sessions';
export {
  createUser,
  DEMO_PASSWORD,
  ensureDemoUsers,
  isActiveUser,
  listUsers,
  type UserInfo,
  updateUser,
} from './users';
