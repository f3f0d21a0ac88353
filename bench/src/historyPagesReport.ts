import type { HistoryPagesResult } from './scenarios/historyPages';
import { historyPageLimitMs } from './scenarios/historyPages';

/** The history pages as report lines: how much history, then each page's p50 and max. */
export function formatHistoryPages(result: HistoryPagesResult): string[] {
  return [
    `history pages with ${result.lockEvents.toLocaleString('en-US')} lock events and ${result.rowChanges.toLocaleString('en-US')} row changes (written in ${result.fillSeconds.toFixed(1)} s):`,
    ...result.pages.map(
      ({ page, latencyMs }) =>
        `  ${page.padEnd(40)} p50 ${latencyMs.p50.toFixed(1)} ms, max ${latencyMs.max.toFixed(1)} ms (target < ${historyPageLimitMs(page)} ms)`,
    ),
  ];
}
