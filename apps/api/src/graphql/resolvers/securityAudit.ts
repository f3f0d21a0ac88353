import type { Principal, RequestOrigin, SecurityAudit } from '@tablelock/identity';
import type { ApiContext } from '../../context';

/** Where the request comes from, as security events record it. */
export function requestOrigin(context: ApiContext): RequestOrigin {
  return { ip: context.http?.request.ip ?? null, logger: context.logger };
}

/** Who changes users or API keys, and from where, as security events record it. */
export function securityAudit(context: ApiContext, actor: Principal): SecurityAudit {
  return { ...requestOrigin(context), actor: actor.name };
}
