/** The command line was used wrongly: the message says how to use it instead. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
