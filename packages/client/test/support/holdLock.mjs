// Holds a table with the compiled client until the process is stopped, as a batch job would:
// node holdLock.mjs <url> <api key> <table>. Says `holding` with the token once it holds it.
import { createTablelockClient } from '../../dist/index.js';

const [url, apiKey, table] = process.argv.slice(2);
await createTablelockClient({ url, apiKey }).withTableLock(table, async (lock) => {
  process.stdout.write(`${JSON.stringify({ step: 'holding', token: lock.tokens[table] })}\n`);
  // Work that never ends by itself (and ignores lock.signal): only a signal stops it.
  await new Promise(() => {});
});
