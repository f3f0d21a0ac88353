// The fencing token of the lock this browser tab holds, per user and table. Kept in
// sessionStorage: a reload of the tab carries on editing, while another tab (or device)
// never picks it up by accident and has to take the lock over explicitly.

const storageKey = (user: string, table: string) => `tablelock.lockToken.${user}.${table}`;

export function readLockToken(user: string, table: string): string | null {
  return sessionStorage.getItem(storageKey(user, table));
}

export function writeLockToken(user: string, table: string, token: string | null): void {
  if (token === null) sessionStorage.removeItem(storageKey(user, table));
  else sessionStorage.setItem(storageKey(user, table), token);
}
