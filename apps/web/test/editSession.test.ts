import { describe, expect, it } from 'vitest';
import type { GridRow } from '../src/table/changes/gridRow';
import { PendingChanges } from '../src/table/changes/PendingChanges';
import type { ColumnRules } from '../src/table/changes/validateValue';
import { EditSessionStore } from '../src/table/lock/EditSessionStore';
import {
  type EditSession,
  type EditSessionEvent,
  reduceEditSession,
} from '../src/table/lock/editSession';
import type { IdlePhase } from '../src/table/lock/idleDeadline';
import type { LockLoss } from '../src/table/lock/lockLoss';
import { lockEvent } from './support/lockEvent';

const forceReleased: LockLoss = { event: lockEvent({}) };
const released: LockLoss = { event: lockEvent({ action: 'release', actor: 'alice' }) };
const refused: LockLoss = { message: 'The lock on warehouses has ended.' };

const opening = (storedToken: string | null): EditSession => ({ kind: 'opening', storedToken });
const resuming = (holds: boolean): EditSession => ({ kind: 'resuming', token: '41', holds });
const viewing: EditSession = { kind: 'viewing' };
const elsewhere: EditSession = { kind: 'elsewhere' };
const editing = (token = '41', idle: IdlePhase = 'active'): EditSession => ({
  kind: 'editing',
  token,
  finishing: false,
  idle,
});
const finishing: EditSession = { kind: 'editing', token: '41', finishing: true, idle: 'active' };
const lost = (loss: LockLoss | null): EditSession => ({ kind: 'lost', token: '41', loss });

const holds = (value: boolean): EditSessionEvent => ({ type: 'lockStatesRead', holds: value });
const loses = (loss: LockLoss, token = '41'): EditSessionEvent => ({ type: 'lost', token, loss });
const idle = (phase: IdlePhase, token = '41'): EditSessionEvent => ({ type: 'idle', token, phase });
const idleRelease: LockLoss = {
  event: lockEvent({ action: 'expire', actor: 'system', reason: 'idle' }),
};

const transitions: [string, EditSession, EditSessionEvent, EditSession][] = [
  // Arrival, once the lock states are fresh.
  ['a viewer arrives: viewing', opening(null), holds(false), viewing],
  ['a stored token the user no longer holds is for nothing', opening('41'), holds(false), viewing],
  ['the user holds it, not through this tab: elsewhere', opening(null), holds(true), elsewhere],
  ['a reload of the holding tab asks to resume', opening('41'), holds(true), resuming(true)],
  ['lock states while resuming are noted', resuming(true), holds(false), resuming(false)],
  ['the resumed token is edited under again', resuming(true), { type: 'resumed' }, editing()],
  [
    'a resumed token no longer shown held is lost, cause unknown',
    resuming(false),
    { type: 'resumed' },
    lost(null),
  ],
  [
    'a refused resume with the lock held: another tab has it',
    resuming(true),
    { type: 'resumeRefused' },
    elsewhere,
  ],
  [
    'a refused resume with the lock gone: viewing',
    resuming(false),
    { type: 'resumeRefused' },
    viewing,
  ],
  ['lock states once settled decide nothing more for a viewer', viewing, holds(true), viewing],
  // Another tab or device.
  ['the other tab gave the lock back: viewing', elsewhere, holds(false), viewing],
  ['still held elsewhere: unchanged', elsewhere, holds(true), elsewhere],
  [
    'continuing here takes the lock over',
    elsewhere,
    { type: 'acquired', token: '42' },
    editing('42'),
  ],
  // Taking the lock.
  ['starting to edit', viewing, { type: 'acquired', token: '41' }, editing()],
  [
    'starting again after the loss',
    lost(forceReleased),
    { type: 'acquired', token: '42' },
    editing('42'),
  ],
  // Keeping it, and losing it.
  ['lock states showing it held keep editing', editing(), holds(true), editing()],
  ['lock states showing it gone: lost, cause unknown', editing(), holds(false), lost(null)],
  [
    'an event ending the lock: lost, with the event',
    editing(),
    loses(forceReleased),
    lost(forceReleased),
  ],
  [
    'a refused save or renewal: lost, in the server’s words',
    editing(),
    loses(refused),
    lost(refused),
  ],
  [
    'the end of an earlier acquisition is no loss',
    editing('42'),
    loses(forceReleased),
    editing('42'),
  ],
  [
    'the history explains a loss seen in the lock states',
    lost(null),
    loses(forceReleased),
    lost(forceReleased),
  ],
  ['the first account of a loss is kept', lost(forceReleased), loses(refused), lost(forceReleased)],
  ['a loss told to a viewer changes nothing', viewing, loses(forceReleased), viewing],
  ['lock states do not bring a lost lock back', lost(null), holds(true), lost(null)],
  // Idle.
  ['the countdown before the idle limit', editing(), idle('warning'), editing('41', 'warning')],
  ['the idle limit reached', editing('41', 'warning'), idle('ending'), editing('41', 'ending')],
  [
    'activity the server heard of ends the countdown',
    editing('41', 'warning'),
    idle('active'),
    editing(),
  ],
  [
    'activity heard of in time after the limit keeps the lock',
    editing('41', 'ending'),
    idle('active'),
    editing(),
  ],
  [
    'released for inactivity: lost, with the expiry',
    editing('41', 'ending'),
    loses(idleRelease),
    lost(idleRelease),
  ],
  [
    'the idle clock of an earlier acquisition changes nothing',
    editing('42'),
    idle('warning'),
    editing('42'),
  ],
  ['no countdown while giving the lock back', finishing, idle('warning'), finishing],
  ['no countdown once the lock is lost', lost(forceReleased), idle('warning'), lost(forceReleased)],
  [
    'starting again after a release for inactivity: editing, no countdown',
    lost(idleRelease),
    { type: 'acquired', token: '42' },
    editing('42'),
  ],
  // Finishing.
  ['giving the lock back', editing(), { type: 'releasing' }, finishing],
  ['its own release is no loss while finishing', finishing, loses(released), finishing],
  ['its own release seen in the lock states is no loss', finishing, holds(false), finishing],
  ['another end while finishing is a loss', finishing, loses(forceReleased), lost(forceReleased)],
  ['given back: viewing', finishing, { type: 'released' }, viewing],
  ['a failed release keeps editing', finishing, { type: 'releaseFailed' }, editing()],
  ['stopping after the loss: viewing', lost(forceReleased), { type: 'released' }, viewing],
  [
    'a release before anything was held changes nothing',
    elsewhere,
    { type: 'released' },
    elsewhere,
  ],
];

describe('reduceEditSession', () => {
  it.each(transitions)('%s', (_, from, event, to) => {
    expect(reduceEditSession(from, event)).toEqual(to);
  });

  it('returns the same state when nothing changes, so listeners are not woken', () => {
    const session = editing();
    expect(reduceEditSession(session, holds(true))).toBe(session);
    expect(reduceEditSession(session, idle('active'))).toBe(session);
  });
});

const columns: ColumnRules[] = [
  { name: 'id', dataType: 'integer', kind: 'integer', nullable: false, hasDefault: false },
  { name: 'name', dataType: 'text', kind: 'text', nullable: false, hasDefault: false },
];
const row: GridRow = {
  id: '1',
  key: { id: '1' },
  version: 'v1',
  values: { id: '1', name: 'Oslo' },
};

function editingStore(storedToken: string | null = null) {
  const pending = new PendingChanges(columns);
  const kept: { token: string | null } = { token: storedToken };
  const store = new EditSessionStore(pending, {
    read: () => kept.token,
    write: (token) => {
      kept.token = token;
    },
  });
  return { store, pending, kept };
}

describe('EditSessionStore', () => {
  it('keeps the unsaved edits when the lock is lost with them', () => {
    const { store, pending } = editingStore();
    store.dispatch(holds(false));
    store.dispatch({ type: 'acquired', token: '41' });
    pending.setValue(row, 'name', 'Bergen');
    store.dispatch(loses(forceReleased));
    expect(store.getSnapshot()).toEqual(lost(forceReleased));
    expect(pending.counts().total).toBe(1);
  });

  it('drops the unsaved edits when the user finishes editing', () => {
    const { store, pending } = editingStore();
    store.dispatch({ type: 'acquired', token: '41' });
    pending.setValue(row, 'name', 'Bergen');
    store.dispatch(loses(forceReleased));
    store.dispatch({ type: 'released' });
    expect(store.getSnapshot()).toEqual(viewing);
    expect(pending.counts().total).toBe(0);
  });

  it('keeps the token for a reload while editing, and forgets it once viewing', () => {
    const { store, kept } = editingStore('41');
    expect(store.getSnapshot()).toEqual(opening('41'));
    store.dispatch(holds(true));
    store.dispatch({ type: 'resumed' });
    expect(kept.token).toBe('41');
    store.dispatch({ type: 'acquired', token: '42' });
    expect(kept.token).toBe('42');
    store.dispatch({ type: 'releasing' });
    store.dispatch({ type: 'released' });
    expect(kept.token).toBeNull();
  });

  it('tells its listeners of changes only', () => {
    const { store } = editingStore();
    let heard = 0;
    const stop = store.subscribe(() => heard++);
    store.dispatch(holds(false));
    store.dispatch(holds(false));
    stop();
    store.dispatch({ type: 'acquired', token: '41' });
    expect(heard).toBe(1);
  });
});
