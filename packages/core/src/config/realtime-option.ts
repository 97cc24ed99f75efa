import { checkInteger, checkKeys, invalidOption } from '@store/common';
import type { RealtimeConfig } from '../model/config';
import type { ResolvedRealtime } from '../model/options';
import { parseByteSize } from './byte-size';

const REALTIME_OPTIONS = [
  'maxSubscribers',
  'keepAliveSeconds',
  'replayEvents',
  'maxQueuedBytes',
] as const satisfies readonly (keyof RealtimeConfig)[];

/** `realtime`, defaults applied: `undefined` when `false`. */
export function resolveRealtime(value: unknown): ResolvedRealtime | undefined {
  if (value === false) return undefined;
  const config: RealtimeConfig = checkKeys(value ?? {}, 'realtime', REALTIME_OPTIONS);
  const maxQueuedBytes = parseByteSize(config.maxQueuedBytes ?? '256kb');
  if (maxQueuedBytes === undefined || maxQueuedBytes < 1024) {
    invalidOption('realtime.maxQueuedBytes', 'expected at least 1024 bytes, or a size such as "256kb"');
  }
  return Object.freeze({
    maxSubscribers: checkInteger(config.maxSubscribers ?? 1000, 'realtime.maxSubscribers', 1),
    keepAliveSeconds: checkInteger(config.keepAliveSeconds ?? 15, 'realtime.keepAliveSeconds', 1),
    replayEvents: checkInteger(config.replayEvents ?? 1000, 'realtime.replayEvents', 0),
    maxQueuedBytes,
  });
}
