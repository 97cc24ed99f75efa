/**
 * `budgets`: what one request may cost. Resolved once (defaults applied, every value checked,
 * refusals naming the option), then, per request, each function called once with the request's
 * `HookContext` and its result checked the same way.
 */
import { checkInteger, checkKeys, invalidOption } from '@store/common';
import { runHook } from '../hooks/hooks';
import type { BudgetFunction, BudgetsConfig } from '../model/config';
import type { RequestBudgets } from '../model/context';
import type { HookContext } from '../model/hooks';
import type { ResolvedBudgets } from '../model/options';
import { parseByteSize } from './byte-size';

const BUDGET_OPTIONS = [
  'examined',
  'timeMS',
  'answerBytes',
] as const satisfies readonly (keyof BudgetsConfig)[];

/**
 * Documents one operation may examine: ten times a collection of 100,000, so a count, a
 * `$total` or an unindexed list over such a collection completes, while a scan of millions of
 * documents (seconds of the embedded engine's time, whoever else waits) is refused.
 */
const DEFAULT_EXAMINED = 1_000_000;

/** Time limit of one operation when neither `maxTimeMS` nor `budgets.timeMS` is set. */
const DEFAULT_TIME_MS = 5000;

/**
 * The default bytes of a read's answer, in `bodyLimit`s: a default page (10 documents) of the
 * largest documents the store accepts, with room for their relations.
 */
const ANSWER_BYTES_PER_BODY_LIMIT = 16;

/** Resolved `budgets`, and the time limit of the queries no request makes. */
interface BudgetsResolution {
  readonly budgets: ResolvedBudgets;
  readonly maxTimeMS: number;
}

const FUNCTION_TOO = 'or a function of the request returning one';

function integerBudget(value: unknown, option: string): number | BudgetFunction {
  if (typeof value === 'function') return value as BudgetFunction;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    invalidOption(option, `expected an integer >= 1, ${FUNCTION_TOO}`);
  }
  return value as number;
}

function bytesBudget(value: unknown, bodyLimit: number): number | BudgetFunction {
  if (typeof value === 'function') return value as BudgetFunction;
  const bytes = parseByteSize(value);
  if (bytes === undefined || bytes < 1) {
    invalidOption(
      'budgets.answerBytes',
      `expected a number of bytes or a size such as "16mb", ${FUNCTION_TOO}`,
    );
  }
  if (bytes < bodyLimit) {
    invalidOption(
      'budgets.answerBytes',
      `expected at least bodyLimit (${bodyLimit} bytes): every document the store accepts must be readable`,
    );
  }
  return bytes;
}

/**
 * `budgets`, defaults applied: `timeMS` defaults to the top-level `maxTimeMS` (5000), and setting
 * both is refused; `answerBytes` defaults to sixteen times `bodyLimit`. `maxTimeMS` in the result
 * limits the queries no request makes (plugins, start-up): `maxTimeMS`, else a number
 * `budgets.timeMS`, else 5000.
 */
export function resolveBudgets(value: unknown, maxTimeMS: unknown, bodyLimit: number): BudgetsResolution {
  const config: BudgetsConfig = checkKeys(value ?? {}, 'budgets', BUDGET_OPTIONS);
  if (config.timeMS !== undefined && maxTimeMS !== undefined) {
    invalidOption(
      'maxTimeMS',
      'is the default of budgets.timeMS: set one of them, not both (budgets.timeMS also takes a function of the request)',
    );
  }
  const timeMS =
    config.timeMS === undefined
      ? checkInteger(maxTimeMS ?? DEFAULT_TIME_MS, 'maxTimeMS', 1)
      : integerBudget(config.timeMS, 'budgets.timeMS');
  const budgets: ResolvedBudgets = Object.freeze({
    examined: integerBudget(config.examined ?? DEFAULT_EXAMINED, 'budgets.examined'),
    timeMS,
    answerBytes: bytesBudget(config.answerBytes ?? ANSWER_BYTES_PER_BODY_LIMIT * bodyLimit, bodyLimit),
  });
  return { budgets, maxTimeMS: typeof timeMS === 'number' ? timeMS : DEFAULT_TIME_MS };
}

/** Whether no budget is a function: the resolved budgets are then every request's. */
function isFixed(budgets: ResolvedBudgets): budgets is ResolvedBudgets & RequestBudgets {
  return (
    typeof budgets.examined === 'number' &&
    typeof budgets.timeMS === 'number' &&
    typeof budgets.answerBytes === 'number'
  );
}

/** One budget for one request: a function's result must be an integer >= 1, else a 500 naming the option. */
async function budgetOf(budget: number | BudgetFunction, option: string, ctx: HookContext): Promise<number> {
  if (typeof budget === 'number') return budget;
  const value: unknown = await runHook(() => budget(ctx));
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    const shown = typeof value === 'number' ? String(value) : typeof value;
    throw new TypeError(`${option} must return an integer >= 1; it returned ${shown}`);
  }
  return value as number;
}

async function called(budgets: ResolvedBudgets, ctx: HookContext): Promise<RequestBudgets> {
  return Object.freeze({
    examined: await budgetOf(budgets.examined, 'budgets.examined', ctx),
    timeMS: await budgetOf(budgets.timeMS, 'budgets.timeMS', ctx),
    answerBytes: await budgetOf(budgets.answerBytes, 'budgets.answerBytes', ctx),
  });
}

/**
 * The budgets of one request: the resolved ones when none is a function (no promise), otherwise
 * each function called once with the request's `HookContext` (`context()`, built only then). What a
 * function throws answers as a hook's error does.
 */
export function requestBudgets(
  budgets: ResolvedBudgets,
  context: () => HookContext,
): RequestBudgets | Promise<RequestBudgets> {
  return isFixed(budgets) ? budgets : called(budgets, context());
}
