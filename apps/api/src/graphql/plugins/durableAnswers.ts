import type { ApolloServerPlugin } from '@apollo/server';
import { awaitDurableAnswer, isOutcomeUnknown } from '@tablelock/db';
import type { OperationDefinitionNode } from 'graphql';
import type { ApiContext } from '../../context';
import { outcomeUnknownError } from '../../process/outcomeUnknown';

/**
 * Queries whose answers report changes as done: the change feed's pages (a consumer moves its
 * cursor past them; a page with events is confirmed in its own read, see readFeedPage) and a
 * change request's state (waitForDecision resolves on it).
 */
const QUERIES_REPORTING_CHANGES = new Set(['changeFeed', 'changeRequest']);

/**
 * Gives an answer that reports state only once that state is on a synchronous standby (see
 * awaitDurableAnswer): every mutation's, a first run, a replay or an answer read from what a row
 * already says, and the queries above. One whose state cannot be confirmed becomes
 * OUTCOME_UNKNOWN (HTTP 503, Retry-After), as a first run's cancelled commit does. The request
 * runs in an answer scope (inAnswerScope, from the HTTP middleware), where a write whose own
 * commit was confirmed says so and spares the barrier.
 */
export const durableAnswers: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async executionDidStart(request) {
        if (!request.operation || !reportsChanges(request.operation)) return;
        return {
          async executionDidEnd(error) {
            const { body } = request.response;
            if (error || body?.kind !== 'single' || !answersSomething(body.singleResult.data)) {
              return;
            }
            try {
              await awaitDurableAnswer(request.contextValue.prisma);
            } catch (barrierError) {
              if (!isOutcomeUnknown(barrierError)) throw barrierError;
              request.contextValue.logger.warn((barrierError as Error).message);
              const { message, extensions } = outcomeUnknownError();
              request.response.body = {
                kind: 'single',
                singleResult: {
                  data: null,
                  errors: [{ message, extensions: { ...extensions, http: undefined } }],
                },
              };
            }
          },
        };
      },
    };
  },
};

function reportsChanges(operation: OperationDefinitionNode): boolean {
  if (operation.operation === 'mutation') return true;
  if (operation.operation !== 'query') return false;
  return operation.selectionSet.selections.some(
    (selection) =>
      selection.kind === 'Field' && QUERIES_REPORTING_CHANGES.has(selection.name.value),
  );
}

/** Whether any root field answered (a refusal answers none: it reports nothing as done). */
function answersSomething(data: Record<string, unknown> | null | undefined): boolean {
  return Object.values(data ?? {}).some((value) => value !== null && value !== undefined);
}
