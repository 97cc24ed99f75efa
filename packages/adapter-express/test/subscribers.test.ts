/**
 * Change events at scale: 1,000 event streams open at once on one store (Express, embedded
 * engine), each receiving exactly its own events, with the memory they cost reported.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openEvents } from '@store/test-kit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../src/index';

const SUBSCRIBERS = 1000;
const ROOMS = 10;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

describe('1,000 subscribers on one store', () => {
  // Every stream comes from one anonymous address: the per-client cap and the signed-in share step aside.
  const store = createStore({
    realtime: { maxSubscribers: SUBSCRIBERS, maxStreamsPerClient: SUBSCRIBERS + 1, signedInShare: 0 },
  });
  const server = createServer(express().use('/api', store));
  const served = { url: '' };
  let streams: Awaited<ReturnType<typeof openEvents>>[] = [];
  let before = 0;

  beforeAll(async () => {
    await store.ready;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    before = process.memoryUsage().rss;
    streams = await Promise.all(
      Array.from({ length: SUBSCRIBERS }, (_, i) => openEvents(`${served.url}/messages?room=r${i % ROOMS}`)),
    );
  }, 60_000);

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });

  it('opens every stream, and answers 503 to one more', async () => {
    expect(streams.map((stream) => stream.status)).toEqual(Array(SUBSCRIBERS).fill(200));
    const extra = await openEvents(`${served.url}/messages`);
    expect(extra.status).toBe(503);
  });

  it('sends each subscriber exactly the events of its room, with bounded memory', async () => {
    const text = 'x'.repeat(1000);
    for (let room = 0; room < ROOMS; room++) {
      const reply = await fetch(`${served.url}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ _id: `m${room}`, room: `r${room}`, text }),
      });
      expect(reply.status).toBe(201);
    }
    await Promise.all(streams.map((stream) => stream.waitFor(1, 20_000)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    streams.forEach((stream, i) => {
      expect(stream.events.map(({ data }) => (data as { _id: string })._id)).toEqual([`m${i % ROOMS}`]);
    });
    const grown = process.memoryUsage().rss - before;
    console.info(
      `[realtime] ${SUBSCRIBERS} open streams (server and clients in this process), 10 events of 1 kB delivered: RSS grew ${mib(grown)} (${(grown / SUBSCRIBERS / 1024).toFixed(0)} kB per stream)`,
    );
    // Both ends of 1,000 connections live here (about 90 kB per stream on this machine); the
    // store's share of each is its queue, bounded by realtime.maxQueuedBytes.
    expect(grown).toBeLessThan(256 * 2 ** 20);
  }, 60_000);

  it('ends every stream when the store closes', async () => {
    await store.close();
    await Promise.all(streams.map((stream) => stream.ended));
  }, 30_000);
});
