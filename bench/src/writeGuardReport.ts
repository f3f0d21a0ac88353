import { formatSpread } from './report';
import { CAPTURES, type WriteGuardCostResult } from './scenarios/writeGuardCost';

/** The write guard's cost as report lines: seconds per capture, and RECORD (both forms) over OFF. */
export function formatWriteGuardCost(result: WriteGuardCostResult): string[] {
  const seconds = (spread: Parameters<typeof formatSpread>[0]) =>
    `${formatSpread(spread, (value) => value.toFixed(2))} s`;
  return [
    `write guard (${result.rounds} rounds; RECORD over OFF target ≤ 1.5 for the import apply, ≤ 1.2 for the grid save):`,
    ...CAPTURES.map(
      (capture) =>
        `  ${capture.padEnd(14)} import apply of ${result.importRows.toLocaleString('en-US')} rows ${seconds(result.importApplySeconds[capture])}, grid save of ${result.saveRows.toLocaleString('en-US')} rows ${seconds(result.gridSaveSeconds[capture])}`,
    ),
    `  RECORD/OFF (statements of ${result.batchFromRows?.toLocaleString('en-US') ?? 'no number of'} rows or more in batches, as migrated): import apply ${formatSpread(result.recordOverOff.importApply)}×, grid save ${formatSpread(result.recordOverOff.gridSave)}×`,
    `  RECORD_PER_ROW/OFF (one row change per row; not judged): import apply ${formatSpread(result.perRowOverOff.importApply)}×, grid save ${formatSpread(result.perRowOverOff.gridSave)}×`,
  ];
}
