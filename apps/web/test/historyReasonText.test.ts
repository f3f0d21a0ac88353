import { describe, expect, it } from 'vitest';
import { historyReasonText } from '../src/admin/historyReasonText';
import { translator } from './support/translator';

describe('historyReasonText', () => {
  it('says the server’s own reasons in the user’s language', async () => {
    const ja = await translator('ja');
    expect(historyReasonText({ action: 'expire', reason: 'idle' }, ja)).toEqual({
      text: '操作がなかったため',
      quoted: false,
    });
    expect(historyReasonText({ action: 'expire', reason: 'lease expired' }, ja)?.text).toBe(
      'リースの期限切れ',
    );
    expect(historyReasonText({ action: 'save', reason: 'import products.csv' }, ja)?.text).toBe(
      'products.csv のインポート',
    );
    const en = await translator('en');
    expect(historyReasonText({ action: 'save', reason: 'import products.csv' }, en)?.text).toBe(
      'Import of products.csv',
    );
  });

  it('quotes what a person wrote as written', async () => {
    const ja = await translator('ja');
    expect(historyReasonText({ action: 'take_over', reason: 'import prices now' }, ja)).toEqual({
      text: 'import prices now',
      quoted: true,
    });
    expect(historyReasonText({ action: 'save', reason: null }, ja)).toBeNull();
  });
});
