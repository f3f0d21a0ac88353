import type { PrismaClient } from '@tablelock/db';

export interface RegistryRow {
  tableName: string;
  status: string;
  editor: string | null;
  lockedBy: string[];
  references: string[];
  version: number;
}

/** The whole registry, read in one statement (one consistent snapshot). */
export async function readRegistry(prisma: PrismaClient): Promise<Map<string, RegistryRow>> {
  const rows = await prisma.tableLock.findMany({
    select: {
      tableName: true,
      status: true,
      editor: true,
      lockedBy: true,
      references: true,
      version: true,
    },
  });
  return new Map(rows.map((row) => [row.tableName, row]));
}

/**
 * The lock invariants, as a list of violations (empty when they all hold): an `editing` table
 * holds no FK lock itself and has all its FK targets `locked` with it among their holders; a
 * `locked` table's holders are all `editing` tables that reference it.
 */
export function lockInvariantViolations(registry: Map<string, RegistryRow>): string[] {
  const violations: string[] = [];
  for (const row of registry.values()) {
    if (row.status === 'editing') {
      if (row.lockedBy.length > 0) violations.push(`${row.tableName} is editing and locked`);
      for (const target of row.references) {
        const held = registry.get(target);
        if (held?.status !== 'locked' || !held.lockedBy.includes(row.tableName)) {
          violations.push(`${row.tableName} is editing but ${target} is not locked by it`);
        }
      }
    }
    if (row.status === 'locked') {
      if (row.lockedBy.length === 0) violations.push(`${row.tableName} is locked by nobody`);
      for (const holder of row.lockedBy) {
        const holderRow = registry.get(holder);
        if (holderRow?.status !== 'editing' || !holderRow.references.includes(row.tableName)) {
          violations.push(`${row.tableName} is locked by ${holder}, which does not hold it`);
        }
      }
    }
  }
  return violations;
}
