import type { RowScopeLineResult } from './scenarios/rowScopeLine';
import type { RowScopeWriteCostResult } from './scenarios/rowScopeWriteCost';
import type { Spread } from './spread';

const seconds = (spread: Spread) => `${(spread.median * 1000).toFixed(1)} ms`;
const times = (spread: Spread) =>
  `${spread.median.toFixed(2)}× (${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`;

/** The line of row scopes and their writes' cost, as the bench's text report says them. */
export function formatRowScopes(
  line: RowScopeLineResult | undefined,
  cost: RowScopeWriteCostResult | undefined,
): string[] {
  return [
    ...(line
      ? [
          `row scopes in line: ${line.editors} editors on disjoint scopes of one table and a whole-table waiter:`,
          `  ${line.grants} scopes granted, ${line.falseConflicts} false conflicts, ${line.wholeTableRefusals} refusals for the whole-table waiter`,
          `  the waiter waited ${line.waiterWaitMs.toFixed(0)} ms; at most ${line.grantsWhileWaiting} scope(s) per editor meanwhile`,
        ]
      : []),
    ...(cost
      ? [
          `writes under a row scope beside ${cost.liveScopes.toLocaleString('en-US')} live scopes (${cost.rows} rows, ${cost.rounds} rounds), over the whole table's:`,
          `  grid save      ${seconds(cost.gridSaveSeconds.rowScope)} vs ${seconds(cost.gridSaveSeconds.wholeTable)}: ${times(cost.rowScopeOverWholeTable.gridSave)}`,
          `  guarded write  ${seconds(cost.guardedWriteSeconds.rowScope)} vs ${seconds(cost.guardedWriteSeconds.wholeTable)}: ${times(cost.rowScopeOverWholeTable.guardedWrite)}`,
        ]
      : []),
  ];
}
