import { describe, expect, it } from 'vitest';
import { exportUrl } from '../src/table/files/exportUrl';

describe('exportUrl', () => {
  it('names the table and format, and sends the view as the rows query takes it', () => {
    const url = exportUrl('products', 'csv', {
      sort: [{ column: 'name', direction: 'desc' }],
      filter: [{ column: 'name', operator: 'contains', value: 'tea & co' }],
    });
    const parsed = new URL(url, 'http://app.example');
    expect(parsed.pathname).toBe('/export/products.csv');
    expect(JSON.parse(parsed.searchParams.get('sort') ?? '')).toEqual([
      { column: 'name', direction: 'desc' },
    ]);
    expect(JSON.parse(parsed.searchParams.get('filter') ?? '')).toEqual([
      { column: 'name', operator: 'contains', value: 'tea & co' },
    ]);
  });

  it('leaves out an empty view, escapes the table name and sends the time zone', () => {
    expect(exportUrl('Odd "Name"/x', 'xlsx', { sort: [], filter: [] }, 'Asia/Tokyo')).toBe(
      '/export/Odd%20%22Name%22%2Fx.xlsx?tz=Asia%2FTokyo',
    );
  });
});
