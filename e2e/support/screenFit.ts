/// <reference lib="dom" />
// The checks below run in the page, on its DOM.
import { expect, type Page } from '@playwright/test';

/** Fails when the page scrolls sideways: something is wider than the viewport. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(width.page, 'the page is wider than the viewport').toBeLessThanOrEqual(width.viewport);
}

/**
 * The texts of the elements matching `selector` that take more than one line: a label broken
 * inside a word (a Japanese one, one character per line) or squeezed onto two.
 */
export function brokenLabels(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((wanted) => {
    // A text broken over lines has boxes at several heights; hidden texts (for screen readers
    // only, in a 1 px box) do not count.
    const broken = (text: Text) => {
      const range = document.createRange();
      range.selectNodeContents(text);
      const tops = Array.from(range.getClientRects(), (rect) => rect.top);
      return tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 4;
    };
    const texts = (element: Element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const found: Text[] = [];
      while (walker.nextNode()) found.push(walker.currentNode as Text);
      return found.filter((text) => !text.parentElement?.closest('.visually-hidden'));
    };
    return Array.from(document.querySelectorAll(wanted))
      .filter((element) => texts(element).some(broken))
      .map((element) => element.textContent ?? '');
  }, selector);
}
