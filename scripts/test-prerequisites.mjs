// What `npm test` needs beside Node.js, found the way the tests find it. Run directly (the first
// step of `npm test`, before the install), it stops at once, naming the commands that install
// what is missing, instead of a test failing minutes later.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Chromium's headless shell first: the browser without its windowing and compositing layers,
// which Playwright itself drives in headless mode. On the 2-core machine it ran the browser
// tests in 3.5 minutes instead of 4.3 with the full browser (same tests, nothing else running).
const SYSTEM_BROWSERS = [
  'chromium-headless-shell',
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
];

export const NO_BROWSER =
  'The browser tests need Chromium or Chrome and found none: install it (Debian/Ubuntu: `sudo apt-get install chromium-headless-shell`, or `chromium`) or set CHROMIUM_PATH to a Chromium/Chrome executable.';

export const NO_PGBOUNCER =
  'The tests behind a connection pooler need PgBouncer and found none: install it (Debian/Ubuntu: `sudo apt-get install pgbouncer`).';

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (command, extraDirectories = []) =>
  [...(process.env.PATH ?? '').split(delimiter), ...extraDirectories]
    .filter((directory) => directory !== '')
    .map((directory) => join(directory, command))
    .find(isExecutable);

/**
 * The system browser the tests drive: CHROMIUM_PATH when set, else Chromium's headless shell,
 * Chromium or Chrome on PATH.
 * Undefined when there is none (the browser tests then try one Playwright has installed).
 */
export function findSystemChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return isExecutable(configured) ? configured : undefined;
  for (const command of SYSTEM_BROWSERS) {
    const path = onPath(command);
    if (path) return path;
  }
  return undefined;
}

/** Whether Playwright has installed a Chromium of its own (where `playwright install` puts it). */
function playwrightHasChromium() {
  const browsers =
    process.env.PLAYWRIGHT_BROWSERS_PATH ?? join(homedir(), '.cache', 'ms-playwright');
  return existsSync(browsers) && readdirSync(browsers).some((name) => name.startsWith('chromium'));
}

export const NO_PYTHON =
  'The Python client is built and tested in a virtualenv of its own, which needs Python 3.10 or newer with its venv module: install it (Debian/Ubuntu: `sudo apt-get install python3 python3-venv`).';

/** Whether `python3` is 3.10 or newer and can make a virtualenv with pip in it. */
export function hasPythonWithVenv() {
  const check = spawnSync(
    'python3',
    ['-c', 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))'],
    { stdio: 'ignore' },
  );
  return check.status === 0;
}

/** The pgbouncer program on PATH or where Debian's package puts it (/usr/sbin, often not on PATH). */
export function findPgBouncer() {
  return onPath('pgbouncer', ['/usr/sbin']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = [
    findSystemChromium() || (!process.env.CHROMIUM_PATH && playwrightHasChromium())
      ? undefined
      : NO_BROWSER,
    findPgBouncer() ? undefined : NO_PGBOUNCER,
    hasPythonWithVenv() ? undefined : NO_PYTHON,
  ].filter(Boolean);
  if (missing.length > 0) {
    console.error(['npm test cannot run on this machine yet:', ...missing].join('\n- '));
    process.exit(1);
  }
}
