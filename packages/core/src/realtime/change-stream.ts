/**
 * Other processes' writes on MongoDB: a change stream over the store's database, when the
 * deployment has them (a replica set or a sharded cluster; a standalone server has none, and
 * then only this process's writes reach subscribers). With MongoDB 6.0 or later, documents
 * before an update or delete arrive too on collections with `changeStreamPreAndPostImages`
 * enabled (docs/realtime.md).
 */
import type { Document } from '@store/common';
import type { StoreLogger } from '../model/http';
import type { Change, ChangeKind } from './change';
import type { ChangeSource } from './change-feed';

/** The part of a driver `Db` a change stream needs. */
export interface WatchableDb {
  command(command: Document): Promise<Document>;
  watch(pipeline: Document[], options: Document): DriverChangeStream;
}

interface DriverChangeStream {
  on(event: 'change', listener: (event: ChangeEvent) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close(): Promise<void>;
}

/** A change stream event (MongoDB manual, "Change Events"), as far as the store reads it. */
interface ChangeEvent {
  operationType: string;
  ns?: { coll?: string };
  documentKey?: { _id?: unknown };
  fullDocument?: Document | null;
  fullDocumentBeforeChange?: Document | null;
}

/** The wire version of MongoDB 6.0, which has `fullDocumentBeforeChange`. */
const PRE_IMAGES_WIRE_VERSION = 17;

const KINDS: Record<string, ChangeKind> = {
  insert: 'insert',
  update: 'update',
  replace: 'update',
  delete: 'delete',
};

/** The change feed's view of a change event; `undefined` for one it does not carry. */
export function changeOf(event: ChangeEvent): Change | undefined {
  const kind = KINDS[event.operationType];
  const collection = event.ns?.coll;
  if (kind === undefined || collection === undefined || event.documentKey === undefined) return undefined;
  const after = kind === 'delete' ? null : (event.fullDocument ?? null);
  // An update whose document is gone by the time the stream looked it up: its delete follows.
  if (kind !== 'delete' && after === null) return undefined;
  const before = kind === 'insert' ? null : (event.fullDocumentBeforeChange ?? undefined);
  return { collection, kind, id: event.documentKey._id, before, after };
}

/** A {@link ChangeSource} over a driver `Db`: `undefined` from `start` on a deployment without change streams. */
export function driverChangeSource(db: WatchableDb, logger: StoreLogger): ChangeSource {
  return {
    async start(publish) {
      const hello = await db.command({ hello: 1 });
      if (typeof hello.setName !== 'string' && hello.msg !== 'isdbgrid') return undefined;
      const preImages = Number(hello.maxWireVersion) >= PRE_IMAGES_WIRE_VERSION;
      const stream = db.watch([{ $match: { operationType: { $in: Object.keys(KINDS) } } }], {
        fullDocument: 'updateLookup',
        ...(preImages ? { fullDocumentBeforeChange: 'whenAvailable' } : {}),
      });
      stream.on('change', (event) => {
        const change = changeOf(event);
        if (change !== undefined) publish(change);
      });
      stream.on('error', (error) =>
        logger.warn(
          "[@store/core] the change stream failed; other processes' writes no longer reach subscribers",
          error,
        ),
      );
      return () => stream.close();
    },
  };
}
