/**
 * Advisory lock keys live in one namespace per purpose (the first int4 of the two-key form; the
 * second is 0 for the whole space, or hashtext of a name in it: a handler, a singleton worker).
 */
export const LOCK_SPACE = { migrations: 1, handler: 2, singleton: 3, translateAccountIds: 4, settings: 5, notices: 6 } as const;
