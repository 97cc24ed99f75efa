/**
 * The one seam between storage and realtime: storage opens the database and starts the plugins;
 * realtime, when the store has it, sees every write through this interface. Storage knows nothing
 * else of change feeds.
 */
import type { StoreDb } from '@store/common';
import type { EndedSessions } from './plugin';

export interface RealtimeSeam {
  /** `db` as the store writes through it: each write to a watched collection is published. */
  publishing(db: StoreDb): StoreDb;
  /** A MongoDB driver `Db`: other processes' writes arrive through its change streams, where it has them. */
  watch(driverDb: unknown): void;
  /** Sessions a plugin ended: their event streams end. */
  sessionsEnded(ended: EndedSessions): void;
}
