import { isPoolClient, type PrismaClient, type Queryable } from '@tablelock/db';

/** Acquisitions of one table that run together; those arriving meanwhile wait for `next`. */
interface Turn {
  running: number;
  finished: Promise<void>;
  finish(): void;
  next?: Turn;
}

/** Per pool client: the turn under way for each table being acquired. */
const turnsOf = new WeakMap<PrismaClient, Map<string, Turn>>();

/**
 * Runs an acquisition of `tableName` in turns with this process's other acquisitions of it:
 * one arriving while a turn is under way waits for it to end, and all that arrived meanwhile
 * go together in the next turn. Of acquisitions racing for a table only one can win; run
 * together they would each read the table free and send a conditional write bound to fail,
 * while those of the next turn read it taken and are refused at their read (200 racers: about
 * half the statements). Correctness does not rest on it: other processes race as before, and
 * the conditional write decides. Inside a transaction the acquisition runs at once.
 */
export async function inAcquisitionTurn<T>(
  db: Queryable,
  tableName: string,
  acquire: () => Promise<T>,
): Promise<T> {
  if (!isPoolClient(db)) return acquire();
  let tables = turnsOf.get(db);
  if (!tables) {
    tables = new Map();
    turnsOf.set(db, tables);
  }
  const current = tables.get(tableName);
  let turn: Turn;
  if (current) {
    current.next ??= newTurn();
    turn = current.next;
    turn.running++;
    await current.finished;
  } else {
    turn = newTurn();
    turn.running++;
    tables.set(tableName, turn);
  }
  try {
    return await acquire();
  } finally {
    turn.running--;
    if (turn.running === 0) {
      if (turn.next) tables.set(tableName, turn.next);
      else tables.delete(tableName);
      turn.finish();
    }
  }
}

function newTurn(): Turn {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { running: 0, finished, finish };
}
