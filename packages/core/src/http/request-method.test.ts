import { describe, expect, it } from 'vitest';
import { createStoreHandler } from '../handler/handler';
import type { StoreRequest } from '../model/http';
import { withUpperCaseMethod } from './request-method';

/** An adapter's request as a class whose getter reads a private field (Express's adapter is one). */
class ClassRequest implements StoreRequest {
  readonly path = '/posts';
  readonly rawQuery = '';
  readonly headers = {};
  readonly #address = '10.0.0.7';
  constructor(readonly method: string) {}
  get ip(): string {
    return this.#address;
  }
}

const request = (method: string, path: string, body?: string): StoreRequest => ({
  method,
  path,
  rawQuery: '',
  headers: body === undefined ? {} : { 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body }),
});

describe('withUpperCaseMethod', () => {
  it('hands an upper-case request on as it is', () => {
    const given = request('PATCH', '/posts/1');
    expect(withUpperCaseMethod(given)).toBe(given);
  });

  it('upper-cases any other method and keeps the adapter getters working', () => {
    const seen = withUpperCaseMethod(new ClassRequest('patch'));
    expect([seen.method, seen.path, seen.ip]).toEqual(['PATCH', '/posts', '10.0.0.7']);
    expect(withUpperCaseMethod(new ClassRequest('Propfind')).method).toBe('PROPFIND');
  });

  it('answers lower-case methods as their upper-case ones, through the handler', async () => {
    const handle = createStoreHandler();
    const created = await handle(request('post', '/posts', '{"title":"a"}'));
    expect(created?.status).toBe(201);
    const { _id } = JSON.parse(created?.body ?? '{}') as { _id: string };
    const patched = await handle(request('patch', `/posts/${_id}`, '{"title":"b"}'));
    expect(JSON.parse(patched?.body ?? '{}')).toMatchObject({ _id, title: 'b' });
    const head = await handle(request('head', `/posts/${_id}`));
    expect(head).toMatchObject({ status: 200 });
    expect(head?.body).toBeUndefined();
    expect(head?.headers.etag).toMatch(/^"/);
    const refused = await handle(request('put', '/posts'));
    expect(refused).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD, POST, PATCH, DELETE' } });
    expect(JSON.parse(refused?.body ?? '{}').detail).toMatch(/^PUT is not allowed here/);
    expect((await handle(request('delete', `/posts/${_id}`)))?.status).toBe(204);
    await handle.close();
  });
});
