import { expect, type Page, test } from '@playwright/test';
import axe from 'axe-core';
import { passedBefore, recordPassed } from './scanRecord';

// The levels the app is held to: WCAG 2.0 and 2.1, A and AA.
const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// What blocks a user outright; axe's moderate and minor findings are left to review.
const BLOCKING_IMPACTS = ['serious', 'critical'];

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/**
 * Fails the test when axe-core finds a serious or critical WCAG A/AA violation in the page as it
 * is now (an open dialog, edit mode, a banner...). Call it once that state is on screen.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await test.step(
    `accessibility of ${new URL(page.url()).pathname}`,
    async () => {
      // axe-core's 580 kB are put into a document once, not before every scan of it (as
      // @axe-core/playwright does, twice): the app is one page, scanned in several states.
      if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(axe.source);
      // One run in the page itself (the app has no frames) that describes only the violations
      // (not the thousands of passing grid nodes).
      const violations = await page.evaluate(async (tags) => {
        const results = await window.axe?.run(document, {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
        });
        if (!results) throw new Error('axe-core is not in the page');
        return results.violations;
      }, WCAG_A_AA);
      const blocking = violations
        .filter(({ impact }) => BLOCKING_IMPACTS.includes(impact ?? ''))
        .flatMap(({ id, impact, nodes }) =>
          nodes.map(
            (node) =>
              `${id} (${impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
          ),
        );
      expect(blocking).toEqual([]);
    },
    { box: true },
  );
}

/**
 * expectAccessible for a state that a helper brings up alike in many tests (`state`: a table page
 * as opened, the start-editing dialog, edit mode as started): scanned the first time a test of
 * this run reaches it, on any worker of the project (their apps run alike). The same state is
 * the same page, language, user and lock status.
 */
export async function expectAccessibleOnce(page: Page, state: string): Promise<void> {
  const seen = await page.evaluate(() =>
    [
      document.documentElement.lang,
      document.querySelector('[data-testid="current-user"]')?.textContent,
      document.querySelector('[data-testid="table-status"]')?.textContent,
      document.querySelector('.block-reason')?.textContent,
    ].join(' | '),
  );
  const key = `${test.info().project.name}: ${state} at ${new URL(page.url()).pathname}: ${seen}`;
  if (passedBefore(key)) return;
  await expectAccessible(page);
  recordPassed(key);
}
