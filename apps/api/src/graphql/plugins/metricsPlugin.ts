import type { ApolloServerPlugin } from '@apollo/server';
import { Kind } from 'graphql';
import type { ApiContext } from '../../context';
import type { ApiMetrics, LockOperationResult } from '../../ports/apiMetrics';

const LOCK_OPERATIONS = new Set([
  'UpdateTableStatusWithLock',
  'acquireTableLock',
  'renewTableLock',
  'releaseTableLock',
  'takeOverTableLock',
  'forceRelease',
]);

/** Codes that mean the lock said no (someone else holds it, or the caller lost it). */
const REFUSALS = new Set(['LOCK_CONFLICT', 'LOCK_LOST', 'LOCK_WAIT_TIMEOUT']);

interface FormattedResult {
  data?: Record<string, unknown> | null;
  errors?: readonly { path?: readonly (string | number)[]; extensions?: { code?: unknown } }[];
}

/**
 * Times every GraphQL operation over HTTP by its first root field (a name from the schema, so
 * the label's values are bounded whatever clients send), and counts lock operations by result
 * and fencing refusals from the answers as sent. Operations the process runs itself (the start's
 * warm-up, through executeOperation) have no HTTP request and are not clients': not counted.
 */
export function metricsPlugin(metrics: ApiMetrics): ApolloServerPlugin<ApiContext> {
  return {
    async requestDidStart({ request }) {
      if (!request.http) return;
      const started = process.hrtime.bigint();
      let rootFields: { key: string; name: string }[] = [];
      return {
        async didResolveOperation({ operation }) {
          rootFields = (operation?.selectionSet.selections ?? []).flatMap((selection) =>
            selection.kind === Kind.FIELD
              ? [
                  {
                    key: selection.alias?.value ?? selection.name.value,
                    name: selection.name.value,
                  },
                ]
              : [],
          );
        },
        async willSendResponse({ response }) {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          metrics.recordGraphqlRequest(rootFields[0]?.name ?? '(invalid)', seconds);
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult as FormattedResult;
          for (const error of result.errors ?? []) {
            if (error.extensions?.code === 'LOCK_LOST') metrics.recordFencingRefusal();
          }
          for (const { key, name } of rootFields) {
            if (LOCK_OPERATIONS.has(name)) {
              metrics.recordLockOperation(name, lockOperationResult(result, key));
            }
          }
        },
      };
    },
  };
}

function lockOperationResult(result: FormattedResult, key: string): LockOperationResult {
  const error =
    result.errors?.find((candidate) => candidate.path?.[0] === key) ?? result.errors?.[0];
  if (error) return REFUSALS.has(String(error.extensions?.code)) ? 'refused' : 'error';
  const answer = result.data?.[key] as { lock_result?: boolean } | null | undefined;
  return answer?.lock_result === false ? 'refused' : 'granted';
}
