import { checkInteger, checkKeys, invalidOption } from '@store/common';
import type { RealtimeConfig } from '../model/config';
import type { ResolvedRealtime } from '../model/options';
import { parseByteSize } from './byte-size';

const REALTIME_OPTIONS = [
  'maxSubscribers',
  'maxStreamsPerClient',
  'signedInShare',
  'keepAliveSeconds',
  'replayEvents',
  'replayBytes',
  'maxQueuedBytes',
] as const satisfies readonly (keyof RealtimeConfig)[];

function byteSize(value: unknown, option: string, min: number): number {
  const bytes = parseByteSize(value);
  if (bytes === undefined || bytes < min) {
    invalidOption(`realtime.${option}`, `expected at least ${min} bytes, or a size such as "1mb"`);
  }
  return bytes;
}

function share(value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    invalidOption('realtime.signedInShare', 'expected a number from 0 to 1');
  }
  return value;
}

/** `realtime`, defaults applied (`maxQueuedBytes` from `bodyLimit`): `undefined` when `false`. */
export function resolveRealtime(value: unknown, bodyLimit: number): ResolvedRealtime | undefined {
  if (value === false) return undefined;
  const config: RealtimeConfig = checkKeys(value ?? {}, 'realtime', REALTIME_OPTIONS);
  return Object.freeze({
    maxSubscribers: checkInteger(config.maxSubscribers ?? 10_000, 'realtime.maxSubscribers', 1),
    maxStreamsPerClient: checkInteger(config.maxStreamsPerClient ?? 100, 'realtime.maxStreamsPerClient', 1),
    signedInShare: share(config.signedInShare ?? 0.5),
    keepAliveSeconds: checkInteger(config.keepAliveSeconds ?? 15, 'realtime.keepAliveSeconds', 1),
    replayEvents: checkInteger(config.replayEvents ?? 1000, 'realtime.replayEvents', 0),
    replayBytes: byteSize(config.replayBytes ?? '16mb', 'replayBytes', 0),
    maxQueuedBytes: byteSize(config.maxQueuedBytes ?? 4 * bodyLimit, 'maxQueuedBytes', 1024),
  });
}
