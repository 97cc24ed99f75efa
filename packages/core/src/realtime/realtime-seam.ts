/** The change feed as storage sees it: the {@link RealtimeSeam} of one store. */
import type { StoreLogger } from '../model/http';
import type { RealtimeSeam } from '../model/realtime-seam';
import type { ChangeFeed } from './change-feed';
import { driverChangeSource, type WatchableDb } from './change-stream';
import { publishingDb } from './publishing-db';

export function realtimeSeam(feed: ChangeFeed, logger: StoreLogger): RealtimeSeam {
  return {
    publishing: (db) => publishingDb(db, feed),
    watch: (driverDb) => feed.useSource(driverChangeSource(driverDb as WatchableDb, logger)),
    sessionsEnded: (ended) => feed.endSessions(ended),
  };
}
