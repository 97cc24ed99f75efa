import type { StoreHandler, StoreRequest, StoreResponse } from '../../src/model/http';

/** A handler's answer as a test reads it: the status, the headers and the JSON body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends `method path` (with its query string) to `handle`; throws when nothing answers it. */
export function send(
  handle: StoreHandler,
  method: string,
  path: string,
  extra: Partial<StoreRequest> = {},
): Promise<Answer> {
  const [pathname, rawQuery = ''] = path.split('?') as [string, string?];
  return handle({ method, path: pathname, rawQuery, headers: {}, ...extra }).then(
    (response: StoreResponse | null): Answer => {
      if (response === null) throw new Error(`${method} ${path} was not answered`);
      return {
        status: response.status,
        headers: response.headers,
        body: response.body === undefined ? undefined : JSON.parse(response.body),
      };
    },
  );
}
