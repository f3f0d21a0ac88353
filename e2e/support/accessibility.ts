import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

// The levels the app is held to: WCAG 2.0 and 2.1, A and AA.
const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// What blocks a user outright; axe's moderate and minor findings are left to review.
const BLOCKING_IMPACTS = ['serious', 'critical'];

/**
 * Fails the test when axe-core finds a serious or critical WCAG A/AA violation in the page as it
 * is now (an open dialog, edit mode, a banner...). Call it once that state is on screen.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await test.step(
    `accessibility of ${new URL(page.url()).pathname}`,
    async () => {
      // Each scan is on a test's clock: one run in the page itself (the app has no frames; the
      // default mode opens another page to combine frames' results) that describes only the
      // violations (not the thousands of passing grid nodes) takes a third of the time.
      const { violations } = await new AxeBuilder({ page })
        .withTags(WCAG_A_AA)
        .setLegacyMode()
        .options({ resultTypes: ['violations'] })
        .analyze();
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
