import { describe, expect, it } from 'vitest';
import { type EditBlock, editBlockMessage } from '../src/tables/editBlockMessage';
import { translator } from './support/translator';

const blocks: [string, EditBlock, string, string][] = [
  [
    'being edited',
    { kind: 'beingEdited', blockers: [{ table: 'products', editor: 'alice' }] },
    'Being edited by alice',
    'alice さんが編集中',
  ],
  [
    'being edited by an API key (no honorific: it is no person)',
    { kind: 'beingEdited', blockers: [{ table: 'products', editor: 'key:nightly-import' }] },
    'Being edited by key:nightly-import',
    'key:nightly-importが編集中',
  ],
  [
    'row scopes in the way: each holder with their values',
    {
      kind: 'beingEdited',
      blockers: [
        { table: 'products', editor: 'alice', rows: ['11', '12'] },
        { table: 'products', editor: 'bob', rows: ['21'] },
      ],
    },
    'Being edited by alice (rows 11, 12), bob (rows 21)',
    'alice さん（行 11, 12）, bob さん（行 21）が編集中',
  ],
  [
    'locked by one table',
    { kind: 'lockedByEditing', blockers: [{ table: 'products', editor: 'alice' }] },
    'Locked because products is being edited (alice)',
    'products の編集中のためロック中（alice さん）',
  ],
  [
    'a referenced table being edited',
    { kind: 'referenceBeingEdited', blockers: [{ table: 'regions', editor: 'bob' }] },
    'regions, which it references, is being edited by bob',
    '参照先の regions（bob さん） が編集中',
  ],
  [
    'two referenced tables, each with its editor',
    {
      kind: 'referenceBeingEdited',
      blockers: [
        { table: 'price_lists', editor: 'bob' },
        { table: 'products', editor: null },
      ],
    },
    'Tables it references are being edited: price_lists (bob), products (someone)',
    '参照先の price_lists（bob さん）, products（他のユーザー さん） が編集中',
  ],
  [
    'frozen by an admin',
    {
      kind: 'frozen',
      blockers: [{ table: 'products', editor: null }],
      reason: 'monthly close',
    },
    'Frozen: monthly close',
    '凍結中：monthly close',
  ],
  [
    'read-only by policy',
    { kind: 'readOnly', blockers: [] },
    'Read-only: it is not edited in this app',
    '読み取り専用：このアプリでは編集しません',
  ],
  [
    'not among those who may edit',
    { kind: 'notAllowed', blockers: [] },
    'Only named roles or groups may edit it',
    '指定された権限またはグループのみ編集できます',
  ],
];

describe('editBlockMessage: the API’s edit block in the user’s words', () => {
  it.each(blocks)('%s', async (_, block, english, japanese) => {
    expect(editBlockMessage(block, await translator('en'))).toBe(english);
    expect(editBlockMessage(block, await translator('ja'))).toBe(japanese);
  });
});
