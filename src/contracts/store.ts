import type { ContractResult, Violation } from "./check";

/** A hook's contract check as kept (hook_contracts). */
export type ContractRecord = {
  hookId: string;
  channel: string;
  result: ContractResult;
  violations: Violation[];
  newType: boolean;
  newField: boolean;
  checkedAt: number;
};

/** Where contract checks and what each channel has seen are kept (db/stores/contracts.ts, both backends). */
export interface ContractStore {
  /** Keeps the checks of a batch (a hook deleted meanwhile is skipped; a second check of a hook is ignored). */
  record(rows: readonly ContractRecord[]): Promise<void>;
  /**
   * Marks `paths` seen for the channel and event type (path "" is the event type itself) by
   * `hookId`; resolves to the paths this call saw first. Of racing callers, one wins each path.
   */
  claimSeen(channel: string, eventType: string, paths: readonly string[], hookId: string): Promise<string[]>;
  /** The checks of these hooks, by hook id. */
  of(hookIds: readonly string[]): Promise<Map<string, ContractRecord>>;
  /** Ids of hooks whose check is `result`, or is marked new-type / new-field, newest first, on a channel if given. */
  idsWhere(where: { result?: ContractResult; newType?: boolean; newField?: boolean; channel?: string }, limit: number): Promise<string[]>;
}
