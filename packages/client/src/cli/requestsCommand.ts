import type { ChangeRequestState } from '../generated/graphql';
import { connectToApi } from '../tablelockApi';
import { waitForDecision } from '../waitForDecision';
import { COMMAND_RETRY_MS, connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import {
  approveChangeRequestMutation,
  changeRequestListQuery,
  changeRequestShowQuery,
  rejectChangeRequestMutation,
} from './requestOperations';
import { UsageError } from './UsageError';

const STATES: readonly ChangeRequestState[] = [
  'pending',
  'applied',
  'rejected',
  'sentBack',
  'withdrawn',
];

const USAGE =
  'tablelock requests list [--table <t>] [--state <s>] [--to-decide] [--json] | show <id> [--json] | approve <id> [--comment <text>] | reject <id> --comment <text> | wait <id> [--json]';

/**
 * `tablelock requests …`: four-eyes change requests, listed, shown, approved or rejected, or
 * waited for until decided (status 0 when applied, 1 otherwise).
 */
export async function requestsCommand([verb, ...args]: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, {
    table: { type: 'string' },
    state: { type: 'string' },
    'to-decide': { type: 'boolean' },
    comment: { type: 'string' },
    json: { type: 'boolean' },
  });
  const api = connectToApi(connectionOf(values));
  const retry = { retryForMs: COMMAND_RETRY_MS };
  // A decision is sent once: sent again after a lost answer, it would find the request closed.
  const once = { retryForMs: 0 };
  const [id, ...extra] = positionals;
  const print = (value: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : text);
  switch (verb) {
    case 'list': {
      if (positionals.length > 0) throw new UsageError(USAGE);
      const state = values.state;
      if (state !== undefined && !STATES.includes(state as ChangeRequestState)) {
        throw new UsageError(`--state is one of ${STATES.join(', ')}.`);
      }
      const filter = {
        table: values.table ?? null,
        states: state ? [state as ChangeRequestState] : null,
        toDecide: values['to-decide'] ?? false,
      };
      const { requests } = (
        await api.request(changeRequestListQuery, { filter, first: 100 }, retry)
      ).changeRequests;
      print(
        requests,
        requests
          .map(
            (request) =>
              `${request.id}\t${request.table}\t${request.state}\t${request.author}\t${request.rowCount} rows\t${request.submittedAt}\t${request.comment ?? ''}\n`,
          )
          .join(''),
      );
      return EXIT.ok;
    }
    case 'show': {
      if (!id || extra.length > 0) throw new UsageError(USAGE);
      const request = (await api.request(changeRequestShowQuery, { id }, retry)).changeRequest;
      if (!request) throw new UsageError(`No change request has the id ${id}.`);
      const rows = request.rows.map(
        (row) =>
          `  ${row.action} ${JSON.stringify(row.key)}: ${JSON.stringify(row.oldValues)} -> ${JSON.stringify(row.newValues)}\n`,
      );
      print(
        request,
        `${request.id} ${request.table} ${request.state} by ${request.author}${request.comment ? `: ${request.comment}` : ''}\n${rows.join('')}${request.decidedBy ? `decided by ${request.decidedBy}${request.decisionComment ? `: ${request.decisionComment}` : ''}\n` : ''}`,
      );
      return EXIT.ok;
    }
    case 'approve':
    case 'reject': {
      if (!id || extra.length > 0) throw new UsageError(USAGE);
      const comment = values.comment?.trim() || null;
      const decided =
        verb === 'approve'
          ? (await api.request(approveChangeRequestMutation, { id, comment }, once))
              .approveChangeRequest
          : comment
            ? (await api.request(rejectChangeRequestMutation, { id, comment }, once))
                .rejectChangeRequest
            : null;
      if (!decided)
        throw new UsageError('Say why: tablelock requests reject <id> --comment <text>');
      print(decided, `${decided.id}: ${decided.state}\n`);
      return EXIT.ok;
    }
    case 'wait': {
      if (!id || extra.length > 0) throw new UsageError(USAGE);
      const decision = await waitForDecision(api, id);
      print(
        decision,
        `${decision.id}: ${decision.state}${decision.decidedBy ? ` by ${decision.decidedBy}` : ''}${decision.decisionComment ? `: ${decision.decisionComment}` : ''}\n`,
      );
      return decision.state === 'applied' ? EXIT.ok : EXIT.refused;
    }
    default:
      throw new UsageError(USAGE);
  }
}
