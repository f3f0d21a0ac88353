import { formatSpread } from './report';
import type { WriteGuardCostResult } from './scenarios/writeGuardCost';

/** The write guard's cost as report lines: seconds per guard, and RECORD over OFF. */
export function formatWriteGuardCost(result: WriteGuardCostResult): string[] {
  const seconds = (spread: Parameters<typeof formatSpread>[0]) =>
    `${formatSpread(spread, (value) => value.toFixed(2))} s`;
  return [
    `write guard (${result.rounds} rounds; RECORD over OFF target ≤ 1.5 for the import apply, ≤ 1.2 for the grid save):`,
    ...(['OFF', 'RECORD', 'ENFORCE'] as const).map(
      (guard) =>
        `  ${guard.padEnd(7)} import apply of ${result.importRows.toLocaleString('en-US')} rows ${seconds(result.importApplySeconds[guard])}, grid save of ${result.saveRows.toLocaleString('en-US')} rows ${seconds(result.gridSaveSeconds[guard])}`,
    ),
    `  RECORD/OFF: import apply ${formatSpread(result.recordOverOff.importApply)}×, grid save ${formatSpread(result.recordOverOff.gridSave)}×`,
  ];
}
