import { describe, expect, it } from 'vitest';
import { HOME_PAGE, safeNext } from '../src/session/safeNext';

describe('safeNext', () => {
  it.each(['/tables/products?sort=name#top', '/admin', '/tables/%E5%95%86%E5%93%81'])(
    'keeps a path of this app: %s',
    (next) => {
      expect(safeNext(next)).toBe(next);
    },
  );

  it.each([
    // Browsers read a backslash as a slash: these lead to another site, or nowhere.
    '/\\evil.example',
    '/\\/evil.example',
    '//evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'tables',
    '',
    null,
  ])('sends anything else home: %j', (next) => {
    expect(safeNext(next)).toBe(HOME_PAGE);
  });
});
