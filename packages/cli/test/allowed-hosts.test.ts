/**
 * The Host check of a loopback server remembers the Host headers it answered (a client sends the
 * same one on every request): remembering changes no verdict, whatever the order of the headers,
 * and the memo stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { hostCheck } from '../src/allowed-hosts';

const verdict = (check: ReturnType<typeof hostCheck>, header: string | undefined) =>
  check(header) === undefined ? 'answered' : 'refused';

describe('the Host check of a loopback server', () => {
  it('gives every header the same verdict the first time and after, answered ones remembered or not', () => {
    const check = hostCheck('127.0.0.1', ['a.test', '.dev.test']);
    const headers = [
      'localhost:3000',
      'LOCALHOST:3000',
      '127.0.0.1',
      '[::1]:8080',
      'a.test',
      'api.dev.test:1',
      'evil.test',
      'localhost.evil.test',
      'evil.test@localhost',
      'notdev.test',
      'local host',
      undefined,
    ];
    const expected = headers.map((header) =>
      verdict(hostCheck('127.0.0.1', ['a.test', '.dev.test']), header),
    );
    expect(expected).toEqual([
      'answered',
      'answered',
      'answered',
      'answered',
      'answered',
      'answered',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
    ]);
    for (let round = 0; round < 3; round++) {
      expect(headers.map((header) => verdict(check, header))).toEqual(expected);
      expect([...headers].reverse().map((header) => verdict(check, header))).toEqual([...expected].reverse());
    }
  });

  it('still refuses a foreign name after more answered headers than it remembers', () => {
    const check = hostCheck('127.0.0.1', []);
    for (let port = 1; port <= 500; port++) expect(check(`localhost:${port}`)).toBeUndefined();
    expect(check('evil.test:1')).toMatchObject({ code: 'host_not_allowed' });
    expect(check('localhost:1')).toBeUndefined();
  });
});
