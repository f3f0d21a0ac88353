import { Prisma } from '@tablelock/db';

/** The schema of tablelock's own tables (`@@schema("tablelock")` in prisma/schema.prisma). */
export const REGISTRY_SCHEMA = 'tablelock';

const qualified = (name: string) => Prisma.raw(`${REGISTRY_SCHEMA}.${name}`);

/** The lock registry: one row per master table. */
export const TABLE_LOCK = qualified('table_lock');
/** An admin's rules for one master table, by name (a null setting follows LOCK_SETTINGS). */
export const TABLE_POLICY = qualified('table_policy');
/** The one row of settings for every table. */
export const LOCK_SETTINGS = qualified('lock_settings');
/** The audit history of lock changes, denied attempts and saves. */
export const LOCK_EVENT = qualified('lock_event');
/** Row scopes: editors of parts of a table, each with a token of its own (decision 0021). */
export const ROW_LOCK = qualified('row_lock');
/** The line of those waiting for tables to be free. */
export const LOCK_WAITER = qualified('lock_waiter');
/** Changes waiting for another person's approval; a pending one carries its table's lock. */
export const CHANGE_REQUEST = qualified('change_request');
/** One place in line per editor and table, claimed by a waiter. */
export const LOCK_WAITER_PLACE = qualified('lock_waiter_place');
/** The tables of the master schema the registry leaves out: partitioned and inheriting ones. */
export const LEFT_OUT_TABLE = qualified('left_out_table');
export const TABLE_STATUS_TYPE = qualified('"TableStatus"');
export const LOCK_ACTION_TYPE = qualified('"LockAction"');
export const ROLE_TYPE = qualified('"Role"');
/**
 * The next fencing token: the primary's timeline above the sequence's value, so that tokens
 * rise across a failover too (decision 0020).
 */
export const NEXT_FENCING_TOKEN = Prisma.raw(`${REGISTRY_SCHEMA}.next_fencing_token()`);
