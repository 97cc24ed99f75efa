/**
 * Change events read by a client nobody here wrote: the `eventsource` package (the WHATWG
 * `EventSource` for Node). It reconnects on its own with `Last-Event-ID` after the connection
 * breaks; the store catches it up on exactly what it missed.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EventSource } from 'eventsource';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../src/index';

interface Received {
  type: string;
  id: string;
  data: { _id?: string; title?: string };
}

describe('the eventsource package reading change events', () => {
  const store = createStore({});
  /** The sockets of open event streams: breaking them leaves the writers' connections alone. */
  const streamSockets = new Set<Socket>();
  const app = express()
    .use((req, _res, next) => {
      if (req.headers.accept?.includes('text/event-stream')) streamSockets.add(req.socket);
      next();
    })
    .use('/api', store);
  const server = createServer(app);
  let url = '';

  beforeAll(async () => {
    await store.ready;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });

  const create = async (_id: string) => {
    const reply = await fetch(`${url}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ _id, title: _id }),
    });
    expect(reply.status).toBe(201);
  };

  /** Resolves once `received` holds `count` events (checked as each arrives). */
  const until = (source: EventSource, received: Received[], count: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${JSON.stringify(received)}`)), 15_000);
      const check = () => {
        if (received.length < count) return;
        clearTimeout(timer);
        resolve();
      };
      for (const type of ['created', 'updated', 'deleted', 'reset']) source.addEventListener(type, check);
      check();
    });

  it('gets what was written while it was away exactly once after the connection broke, then goes on live', async () => {
    const source = new EventSource(`${url}/messages`);
    const received: Received[] = [];
    for (const type of ['created', 'updated', 'deleted', 'reset']) {
      source.addEventListener(type, (event) =>
        received.push({ type, id: event.lastEventId, data: JSON.parse(event.data) }),
      );
    }
    await once(source, 'open');
    await create('m1');
    await create('m2');
    await until(source, received, 2);
    // The connection breaks (a proxy restart, a network change): EventSource reconnects by itself.
    const reconnected = once(source, 'open');
    for (const socket of streamSockets) socket.destroy();
    streamSockets.clear();
    await create('m3');
    await create('m4');
    await reconnected;
    await until(source, received, 4);
    await create('m5');
    await until(source, received, 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    source.close();
    expect(received.map(({ type, data }) => `${type} ${data._id}`)).toEqual([
      'created m1',
      'created m2',
      'created m3',
      'created m4',
      'created m5',
    ]);
    const seqs = received.map(({ id }) => Number(id.split('-')[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
