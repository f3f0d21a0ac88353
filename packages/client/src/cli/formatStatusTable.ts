import type { TablesStatusQuery } from '../generated/graphql';

type TableStatus = TablesStatusQuery['tables'][number];

/**
 * The tables as aligned columns, one line each (like SAP's SM12): TABLE, STATUS, EDITOR, SINCE
 * (local time), LEASE (time left by this machine's clock), LOCKED BY, and WAITERS when the API
 * tells them.
 */
export function formatStatusTable(tables: readonly TableStatus[], now: Date): string {
  const withWaiters = tables.some((table) => table.waiters !== undefined);
  const header = ['TABLE', 'STATUS', 'EDITOR', 'SINCE', 'LEASE', 'LOCKED BY'];
  const rows = tables.map((table) => [
    table.name,
    table.status,
    table.editor ?? '-',
    table.acquiredAt ? localTime(new Date(table.acquiredAt)) : '-',
    leaseLeft(table, now),
    table.lockedBy.join(', ') || '-',
    ...(withWaiters ? [waiting(table)] : []),
  ]);
  const lines = [withWaiters ? [...header, 'WAITERS'] : header, ...rows];
  const widths = lines[0]?.map((_, column) =>
    Math.max(...lines.map((line) => line[column]?.length ?? 0)),
  );
  return lines
    .map((line) =>
      line
        .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

function leaseLeft(table: TableStatus, now: Date): string {
  if (table.status !== 'editing') return '-';
  if (!table.leaseExpiresAt) return 'none';
  const seconds = Math.max(
    0,
    Math.round((Date.parse(table.leaseExpiresAt) - now.getTime()) / 1000),
  );
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

function waiting(table: TableStatus): string {
  const waiters = table.waiters ?? [];
  return (
    waiters.map((waiter) => `${waiter.editor} (${localTime(new Date(waiter.since))})`).join(', ') ||
    '-'
  );
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

function localTime(at: Date): string {
  const date = `${at.getFullYear()}-${twoDigits(at.getMonth() + 1)}-${twoDigits(at.getDate())}`;
  return `${date} ${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}:${twoDigits(at.getSeconds())}`;
}
