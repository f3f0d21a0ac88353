/**
 * Who may take over someone's lock besides admins: `admins_only` nobody; `own_sessions` (the
 * default) the holder from another tab or device; `idle_holder` also any editor once the holder
 * has been idle long enough. The domain's own: the database's enum follows it.
 */
export const TakeOverRule = {
  admins_only: 'admins_only',
  own_sessions: 'own_sessions',
  idle_holder: 'idle_holder',
} as const;

export type TakeOverRule = (typeof TakeOverRule)[keyof typeof TakeOverRule];
