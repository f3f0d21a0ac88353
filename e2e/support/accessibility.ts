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
        // A grid row built exactly like one before it (the same elements, classes, roles and
        // ARIA states, text where the other has text: only its values differ) gets the same
        // findings, colour contrast included. Scanning the ~20 rows of a grid, of which ~5
        // differ, took more than half of each scan's time; the differing ones (a changed row, an
        // error, a read-only row of another holder) are scanned in every scan.
        // Attributes whose values name the row or place it: only whether they are there counts.
        const rowIdentity =
          /^(aria-(rowindex|colindex|describedby|labelledby|controls|owns)|row-index|row-id|row-business-key|comp-id|col-id|id|title|value|href)$/;
        const placement =
          /^\s*(transform|top|left|right|width|height|min-width|max-width|z-index)\s*:/;
        const shape = (element: Element): string => {
          const attributes = [...element.attributes]
            .map(({ name, value }) => {
              if (rowIdentity.test(name)) return name;
              if (name !== 'style') return `${name}=${value}`;
              return `style=${value
                .split(';')
                .filter((declaration) => !placement.test(declaration))
                .join(';')}`;
            })
            .sort()
            .join(' ');
          const text = [...element.childNodes].some(
            (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
          );
          return `<${element.tagName} ${attributes}${text ? ' text' : ''}>${[...element.children].map(shape).join('')}`;
        };
        const shapes = new Set<string>();
        const repeatedRows = [...document.querySelectorAll('.ag-row')].filter((row) => {
          const rowShape = shape(row);
          if (!shapes.has(rowShape)) {
            shapes.add(rowShape);
            return false;
          }
          return true;
        });
        const results = await window.axe?.run(
          { include: [document], exclude: repeatedRows },
          {
            runOnly: { type: 'tag', values: tags },
            resultTypes: ['violations'],
            iframes: false,
          },
        );
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
