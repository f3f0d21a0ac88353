import { accessSync, constants } from 'node:fs';
import { chromium } from '@playwright/test';
import { findSystemChromium } from '../../scripts/test-prerequisites.mjs';

export { NO_BROWSER } from '../../scripts/test-prerequisites.mjs';

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The browser the tests drive: CHROMIUM_PATH when set, else the system's Chromium or Chrome,
 * else one that Playwright has installed. Undefined when there is none.
 */
export function findChromium(): string | undefined {
  const system = findSystemChromium();
  if (system || process.env.CHROMIUM_PATH) return system;
  const installed = chromium.executablePath();
  return isExecutable(installed) ? installed : undefined;
}
