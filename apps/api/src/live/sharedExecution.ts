import {
  createSourceEventStream,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  getOperationAST,
  print,
} from 'graphql';
import type { ApiContext } from '../context';

/** Root fields whose events are the same object for every subscriber and whose result depends on nothing else. */
const SHARED_ROOT_FIELDS = new Set(['lockChanged']);

/**
 * graphql-ws's `subscribe`: as graphql's own, except that a `lockChanged` event is executed once
 * per distinct selection set (document, operation, variables, the caller's role) on this
 * process rather than once per subscriber. The lock feed hands every subscriber the same
 * decoded event, so each result is remembered with the event and forgotten with it; with
 * thousands of browser tabs asking for the same few fields, one change costs a few executions.
 */
export function createSharedSubscribe(): (
  args: ExecutionArgs,
) => Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const results = new WeakMap<object, Map<string, ExecutionResult | Promise<ExecutionResult>>>();
  return async (args) => {
    const stream = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in stream)) return stream;
    const source = stream[Symbol.asyncIterator]();
    const shared = sharedKey(args);
    const resultOf = (event: unknown) => {
      const run = () => execute({ ...args, rootValue: event });
      if (shared === undefined || typeof event !== 'object' || event === null) return run();
      let byKey = results.get(event);
      if (!byKey) {
        byKey = new Map();
        results.set(event, byKey);
      }
      let result = byKey.get(shared);
      if (result === undefined) {
        result = run();
        byKey.set(shared, result);
      }
      return result;
    };
    const done: IteratorReturnResult<undefined> = { value: undefined, done: true };
    const mapped: AsyncIterableIterator<ExecutionResult> = {
      async next() {
        const next = await source.next();
        return next.done ? done : { value: await resultOf(next.value), done: false };
      },
      // Ends the source at once (it may be waiting for an event that never comes).
      async return() {
        await source.return?.();
        return done;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return mapped;
  };
}

/** What makes two subscriptions' results equal, when their root field allows sharing. */
function sharedKey(args: ExecutionArgs): string | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  const fields = operation?.selectionSet.selections ?? [];
  const [field] = fields;
  if (fields.length !== 1 || field?.kind !== 'Field' || !SHARED_ROOT_FIELDS.has(field.name.value)) {
    return undefined;
  }
  const role = (args.contextValue as ApiContext | undefined)?.principal?.role ?? null;
  return JSON.stringify([
    print(args.document),
    args.operationName ?? null,
    args.variableValues ?? {},
    role,
  ]);
}
