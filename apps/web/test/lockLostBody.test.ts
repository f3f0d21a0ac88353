import { describe, expect, it } from 'vitest';
import { translator } from './support/translator';

// What the lock-lost banner says of the edits still on the page, by how many there are.
const bodies: [number, string, string][] = [
  [
    0,
    'You had no unsaved changes, so nothing is lost.',
    '未保存の変更はなかったため、失われた内容はありません。',
  ],
  [
    1,
    'Nothing can be saved until you start editing again; your 1 unsaved change is kept.',
    'もう一度編集を開始するまで保存できません。未保存の変更 1 件はそのまま残っています。',
  ],
  [
    2,
    'Nothing can be saved until you start editing again; your 2 unsaved changes are kept.',
    'もう一度編集を開始するまで保存できません。未保存の変更 2 件はそのまま残っています。',
  ],
];

describe('lockLost.body: the banner after losing a lock, on the unsaved changes', () => {
  it.each(bodies)('%i unsaved', async (count, english, japanese) => {
    expect((await translator('en'))('lockLost.body', { count })).toBe(english);
    expect((await translator('ja'))('lockLost.body', { count })).toBe(japanese);
  });
});
