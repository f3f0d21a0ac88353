import { describe, expect, it } from 'vitest';
import { editBlock } from '../src/tables/editBlock';

const table = (name: string, rest: Partial<Parameters<typeof editBlock>[0]> = {}) => ({
  name,
  status: 'normal' as const,
  editor: null,
  lockedBy: [],
  references: [],
  ...rest,
});

describe('editBlock', () => {
  it('lets the editor carry on, and tells others who is editing', () => {
    const products = table('products', { status: 'editing', editor: 'alice' });
    expect(editBlock(products, [products], 'alice')).toBeNull();
    expect(editBlock(products, [products], 'bob')).toEqual({
      reason: 'beingEdited',
      editor: 'alice',
    });
  });

  it('names the tables whose editing holds a locked table', () => {
    const suppliers = table('suppliers', {
      status: 'locked',
      editor: 'alice',
      lockedBy: ['products'],
    });
    expect(editBlock(suppliers, [suppliers], 'bob')).toEqual({
      reason: 'locked',
      holders: ['products'],
      editor: 'alice',
    });
  });

  it('blocks a table whose referenced table is being edited: it could not be locked', () => {
    const regions = table('regions', { status: 'editing', editor: 'bob' });
    const customers = table('customers', { references: ['regions'] });
    expect(editBlock(customers, [regions, customers], 'alice')).toEqual({
      reason: 'referenceBeingEdited',
      table: 'regions',
      editor: 'bob',
    });
  });
});
