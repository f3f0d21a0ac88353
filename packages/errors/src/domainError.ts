/**
 * A refusal the caller can understand and act on, with the code clients branch on (sent as
 * GraphQL `extensions.code`). Anything else that is thrown is a bug, and clients see only an
 * opaque INTERNAL_SERVER_ERROR.
 */
export class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    /** Extra machine-readable facts, sent along as extensions (e.g. retryAfterSeconds). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
