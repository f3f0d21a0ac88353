import type { Page, Request } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectTableOpened, tablePath } from '../support/tablePage';

// What the table page's first rows wait for (issue 42): the grid's code only on the table page,
// the rows read before the page's other reads, and the table with its references in one read.

/** The scripts and the GraphQL operations `page` asks for, in the order it sends them. */
function recordRequests(page: Page) {
  const scripts: string[] = [];
  const operations: string[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (request.resourceType() === 'script') scripts.push(path);
    if (path === '/graphql' && request.method() === 'POST') {
      const query = String(request.postDataJSON()?.query ?? '');
      operations.push(/^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(query)?.[1] ?? query);
    }
  });
  return { scripts, operations };
}

const isGridCode = (path: string) => /\/assets\/ag-grid-[^/]*\.js$/.test(path);

test('the Tables page loads no grid code; a table page reads its rows first, and its table with its references in one read', async ({
  signIn,
}) => {
  const alice = await signIn('alice');
  const onTables = recordRequests(alice);
  await alice.reload();
  await expect(alice.getByRole('table')).toBeVisible();
  expect(onTables.scripts.length).toBeGreaterThan(0);
  expect(onTables.scripts.filter(isGridCode)).toEqual([]);

  const onTable = recordRequests(alice);
  await alice.goto(tablePath('products'));
  await expectTableOpened(alice, 'products');
  expect(onTable.scripts.filter(isGridCode)).toHaveLength(1);
  const tableReads = onTable.operations.filter((name) =>
    ['RowPage', 'TableWithReferences', 'TableColumns', 'GridLayout', 'SavedViews'].includes(name),
  );
  expect(tableReads[0]).toBe('RowPage');
  expect(onTable.operations).toContain('TableWithReferences');
});
