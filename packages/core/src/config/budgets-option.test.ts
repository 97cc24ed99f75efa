import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import type { HookContext } from '../model/hooks';
import { requestBudgets } from './budgets-option';
import { resolveStoreOptions } from './options';

const MB = 1024 * 1024;

describe('budgets option', () => {
  it('defaults to 1,000,000 documents examined, 5000 ms and sixteen times bodyLimit', () => {
    expect(resolveStoreOptions({}).budgets).toEqual({
      examined: 1_000_000,
      timeMS: 5000,
      answerBytes: 16 * MB,
    });
    expect(resolveStoreOptions({ bodyLimit: '2mb' }).budgets.answerBytes).toBe(32 * MB);
    expect(resolveStoreOptions({ budgets: undefined }).maxTimeMS).toBe(5000);
  });

  it('takes the top-level maxTimeMS as the default of budgets.timeMS, and limits queries no request makes with it', () => {
    const options = resolveStoreOptions({ maxTimeMS: 250 });
    expect([options.budgets.timeMS, options.maxTimeMS]).toEqual([250, 250]);
    const own = resolveStoreOptions({ budgets: { timeMS: 300 } });
    expect([own.budgets.timeMS, own.maxTimeMS]).toEqual([300, 300]);
  });

  it('keeps 5000 ms for queries no request makes when budgets.timeMS is a function', () => {
    const timeMS = () => 100;
    const options = resolveStoreOptions({ budgets: { timeMS } });
    expect([options.budgets.timeMS, options.maxTimeMS]).toEqual([timeMS, 5000]);
  });

  it('reads answerBytes as bytes or a size, and keeps functions as given', () => {
    const examined = () => 10;
    expect(resolveStoreOptions({ budgets: { answerBytes: '2mb', examined } }).budgets).toEqual({
      examined,
      timeMS: 5000,
      answerBytes: 2 * MB,
    });
    expect(resolveStoreOptions({ budgets: { answerBytes: 2 * MB } }).budgets.answerBytes).toBe(2 * MB);
  });

  it.each([
    [{ budgets: 5 }, 'budgets'],
    [{ budgets: { bytes: 10 } }, 'budgets.bytes'],
    [{ budgets: { examined: 0 } }, 'budgets.examined'],
    [{ budgets: { examined: 1.5 } }, 'budgets.examined'],
    [{ budgets: { examined: '10' } }, 'budgets.examined'],
    [{ budgets: { timeMS: -1 } }, 'budgets.timeMS'],
    [{ budgets: { timeMS: Number.POSITIVE_INFINITY } }, 'budgets.timeMS'],
    [{ budgets: { answerBytes: 'lots' } }, 'budgets.answerBytes'],
    [{ budgets: { answerBytes: 0 } }, 'budgets.answerBytes'],
    [{ maxTimeMS: 0 }, 'maxTimeMS'],
  ])('refuses %j naming %s', (config, option) => {
    expect(optionError(config)).toMatchObject({ code: 'invalid_config', option });
  });

  it('refuses an answerBytes below bodyLimit: a document the store accepts must be readable', () => {
    const refused = optionError({ bodyLimit: '1mb', budgets: { answerBytes: '512kb' } });
    expect(refused).toMatchObject({ option: 'budgets.answerBytes' });
    expect(refused.message).toContain('bodyLimit');
  });

  it('refuses maxTimeMS and budgets.timeMS set together, naming maxTimeMS', () => {
    const refused = optionError({ maxTimeMS: 1000, budgets: { timeMS: 2000 } });
    expect(refused).toMatchObject({ option: 'maxTimeMS' });
    expect(refused.message).toContain('budgets.timeMS');
  });
});

describe('requestBudgets', () => {
  const admin = { user: { role: 'admin' } } as unknown as HookContext;
  const anonymous = { user: null } as unknown as HookContext;

  it('answers the resolved budgets without calling for a context when none is a function', () => {
    const { budgets } = resolveStoreOptions({});
    expect(
      requestBudgets(budgets, () => {
        throw new Error('no context needed');
      }),
    ).toBe(budgets);
  });

  it('calls each function once with the request context', async () => {
    const seen: unknown[] = [];
    const examined = (ctx: HookContext) => {
      seen.push(ctx);
      return ctx.user?.role === 'admin' ? 5_000_000 : 1000;
    };
    const { budgets } = resolveStoreOptions({ budgets: { examined, answerBytes: async () => 2 * MB } });
    expect(await requestBudgets(budgets, () => admin)).toEqual({
      examined: 5_000_000,
      timeMS: 5000,
      answerBytes: 2 * MB,
    });
    expect(await requestBudgets(budgets, () => anonymous)).toMatchObject({ examined: 1000 });
    expect(seen).toEqual([admin, anonymous]);
  });

  it.each([0, -5, 2.5, Number.NaN, '1000', undefined])(
    'refuses a function result of %j with an error naming the option',
    async (value) => {
      const { budgets } = resolveStoreOptions({ budgets: { timeMS: () => value as number } });
      await expect(requestBudgets(budgets, () => anonymous)).rejects.toThrow(/^budgets\.timeMS must return/);
    },
  );
});
