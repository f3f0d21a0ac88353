import { DomainError } from '@tablelock/errors';
import type { Request } from 'express';

export type ArchivedHistory = 'lock' | 'security';
export type ArchiveFormat = 'jsonl' | 'csv';

export interface HistoryArchiveRequest {
  history: ArchivedHistory;
  format: ArchiveFormat;
  from: Date;
  to: Date;
}

const PARAMETERS = ['history', 'format', 'from', 'to'] as const;
const HISTORIES: readonly string[] = ['lock', 'security'] satisfies ArchivedHistory[];
const FORMATS: readonly string[] = ['jsonl', 'csv'] satisfies ArchiveFormat[];

/**
 * `/export/history?history=lock|security&format=jsonl|csv&from=<ISO time>&to=<ISO time>`: the
 * events at or after `from` (default: the first) and before `to` (default: now). Any other
 * parameter is refused, so that a misspelt bound cannot quietly export everything.
 */
export function parseHistoryArchiveRequest(request: Request): HistoryArchiveRequest {
  const unknown = Object.keys(request.query).filter(
    (name) => !(PARAMETERS as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    throw new DomainError(
      'BAD_USER_INPUT',
      `Unknown parameter ${unknown.join(', ')}: a history export takes history, format, from and to.`,
    );
  }
  const history = oneOf(request, 'history', HISTORIES, 'lock') as ArchivedHistory;
  const format = oneOf(request, 'format', FORMATS, 'jsonl') as ArchiveFormat;
  const from = time(request, 'from') ?? new Date(0);
  const to = time(request, 'to') ?? new Date();
  if (from >= to) throw new DomainError('BAD_USER_INPUT', 'from must be before to.');
  return { history, format, from, to };
}

function single(request: Request, name: (typeof PARAMETERS)[number]): string | undefined {
  const value = request.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new DomainError('BAD_USER_INPUT', `Give ${name} once.`);
  return value;
}

function oneOf(
  request: Request,
  name: 'history' | 'format',
  allowed: readonly string[],
  fallback: string,
): string {
  const value = single(request, name) ?? fallback;
  if (!allowed.includes(value)) {
    throw new DomainError('BAD_USER_INPUT', `${name} is one of ${allowed.join(', ')}.`);
  }
  return value;
}

function time(request: Request, name: 'from' | 'to'): Date | undefined {
  const value = single(request, name);
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parsed.getTime())) {
    throw new DomainError('BAD_USER_INPUT', `${name} is a time such as 2026-01-31T00:00:00Z.`);
  }
  return parsed;
}
