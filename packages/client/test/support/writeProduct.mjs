// A job of another system writing to the master table through a database login of its own:
// node writeProduct.mjs <database url> <product id> <name>. It shows that it holds the lock
// with the token `tablelock lock` gives it (TABLELOCK_TOKEN), when it is given one.
import pg from 'pg';

const [url, id, name] = process.argv.slice(2);
const client = new pg.Client({ connectionString: url, application_name: 'price-job' });
await client.connect();
try {
  await client.query('BEGIN');
  if (process.env.TABLELOCK_TOKEN) {
    await client.query("SELECT tablelock.use_lock('products', $1)", [process.env.TABLELOCK_TOKEN]);
  }
  await client.query('UPDATE master.products SET name = $2 WHERE id = $1', [id, name]);
  await client.query('COMMIT');
} catch (error) {
  process.stderr.write(`${error.code}: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  await client.end();
}
