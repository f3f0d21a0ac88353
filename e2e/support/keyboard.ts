import type { Locator } from '@playwright/test';

// More presses than any page here needs between two controls: a key that never gets there fails.
const MAX_PRESSES = 40;

const isFocused = (target: Locator) =>
  target.evaluateAll(
    (elements) => elements.length === 1 && elements[0] === elements[0]?.ownerDocument.activeElement,
  );

/**
 * Presses `key` (Tab, Shift+Tab, an arrow...) until `target` has the focus, as a keyboard user
 * moves through a page, and fails if it never does: the target cannot be reached that way.
 */
export async function pressUntilFocused(target: Locator, key: string): Promise<void> {
  for (let presses = 0; !(await isFocused(target)); presses++) {
    if (presses === MAX_PRESSES) {
      throw new Error(`${key} pressed ${MAX_PRESSES} times never focused ${target}`);
    }
    await target.page().keyboard.press(key);
  }
}
