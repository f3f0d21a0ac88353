import * as openid from 'openid-client';

/**
 * Why an OpenID Connect sign-in was refused before tablelock looked at the user: the callback's
 * checks. The browser is sent back to the login page with one of these (the page says it in
 * words); the security event also gets the library's own message.
 */
export type SignInProblem =
  /** The callback's state is not the one this browser's sign-in started with. */
  | 'state_mismatch'
  /** No sign-in under way for this state: finished already (a replay), or over 10 minutes old. */
  | 'sign_in_expired'
  /** The provider answered with an error (the user cancelled, say). */
  | 'provider_error'
  /** The provider refused to exchange the code (used before, or not issued to us). */
  | 'code_refused'
  | 'nonce_mismatch'
  | 'wrong_audience'
  | 'token_expired'
  | 'bad_signature'
  /** Any other fault in the provider's answer. */
  | 'invalid_token';

export interface ClassifiedProblem {
  problem: SignInProblem;
  detail: string;
}

/** What openid-client's refusal of the provider's answer means; null for anything else. */
export function classifySignInError(error: unknown): ClassifiedProblem | null {
  if (error instanceof openid.AuthorizationResponseError) {
    return {
      problem: 'provider_error',
      detail: `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`,
    };
  }
  if (error instanceof openid.ResponseBodyError) {
    return {
      problem: 'code_refused',
      detail: `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`,
    };
  }
  if (!(error instanceof openid.ClientError)) return null;
  const cause = error.cause as { message?: string; cause?: { claim?: string } } | undefined;
  const claim = (cause as { claim?: string } | undefined)?.claim ?? cause?.cause?.claim;
  const detail = cause?.message ?? error.message;
  switch (error.code) {
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      if (claim === 'nonce') return { problem: 'nonce_mismatch', detail };
      if (claim === 'aud' || claim === 'azp') return { problem: 'wrong_audience', detail };
      return { problem: 'invalid_token', detail };
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
      return { problem: claim === 'exp' ? 'token_expired' : 'invalid_token', detail };
    case 'OAUTH_INVALID_RESPONSE':
      return {
        problem: /signature/i.test(detail) ? 'bad_signature' : 'invalid_token',
        detail,
      };
    default:
      return { problem: 'invalid_token', detail };
  }
}
