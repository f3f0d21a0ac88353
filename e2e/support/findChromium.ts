import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from '@playwright/test';

const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (command: string) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, command))
    .find(isExecutable);

export const NO_BROWSER =
  'The browser tests need Chromium or Chrome and found none: install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium/Chrome executable.';

/**
 * The browser the tests drive: CHROMIUM_PATH when set, else the system's Chromium or Chrome,
 * else one that Playwright has installed. Undefined when there is none.
 */
export function findChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return isExecutable(configured) ? configured : undefined;
  for (const command of SYSTEM_BROWSERS) {
    const path = onPath(command);
    if (path) return path;
  }
  const installed = chromium.executablePath();
  return isExecutable(installed) ? installed : undefined;
}
