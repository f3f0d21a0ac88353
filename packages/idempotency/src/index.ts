export { deleteExpiredIdempotencyKeys } from './deleteExpiredIdempotencyKeys';
export {
  type IdempotencyErrorCode,
  type IdempotentRequest,
  type IdempotentRun,
  runIdempotently,
} from './runIdempotently';
