import type { ClientTestApi } from './clientTestApi';

/**
 * Makes `table` need approval, with two editor keys: the author's (named `authorName`) and a
 * reviewer's, which stand for different people (a key stands for the person who made it; one
 * no person made decides nothing).
 */
export async function fourEyesKeys(api: ClientTestApi, table: string, authorName: string) {
  const author = { url: api.url, apiKey: await api.newKey(authorName, 'editor') };
  const reviewer = { url: api.url, apiKey: await api.newKey('reviewer', 'editor') };
  for (const [name, createdBy] of [
    [authorName, 'bob'],
    ['reviewer', 'admin'],
  ]) {
    await api.database.prisma.apiKey.update({ where: { name }, data: { createdBy } });
  }
  await api.database.prisma.tablePolicy.create({
    data: { tableName: table, changesNeedApproval: true },
  });
  return { author, reviewer };
}
