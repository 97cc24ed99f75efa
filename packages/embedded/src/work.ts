/**
 * The pace and the budgets of one operation of the embedded engine. A long operation (a scan,
 * a sort, a multi-document write) runs in slices of about {@link SLICE_MS}: between two slices
 * it lets the event loop run (`setImmediate`), so other callers' requests interleave with it.
 * The clock is read every few units of work (a count that adapts to their cost), so an
 * operation that ends within its first slice (an `_id` lookup, a page of a small collection)
 * never pauses and pays next to nothing for the checks. Between slices it also enforces
 * `maxTimeMS` (code 50, MaxTimeMSExpired), and on every document it examines, `maxExamined`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EmbeddedDbError } from './errors';

/** How long (ms) an operation runs before it lets other work in. */
const SLICE_MS = 4;
/** Units of work before the first look at the clock. */
const FIRST_LOOK_AFTER = 16;
/** The most units of work between two looks at the clock (cheap units: a scan of small documents). */
const MOST_BETWEEN_LOOKS = 1024;
/** How far apart (ms) the looks at the clock are aimed: a slice overruns by about this much at most. */
const LOOK_EVERY_MS = SLICE_MS / 8;

/** The limits an operation's caller may set. */
export interface WorkLimits {
  maxTimeMS?: unknown;
  maxExamined?: unknown;
}

/** `value` as a limit (`Infinity` when absent, or when `zeroIsNone` and 0); BadValue when not a non-negative integer. */
function limitOf(name: string, value: unknown, zeroIsNone: boolean): number {
  if (value === undefined || (zeroIsNone && value === 0)) return Number.POSITIVE_INFINITY;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new EmbeddedDbError('BadValue', `${name} must be a non-negative integer`);
}

/** The error of an operation that examined `examined` documents, past `maxExamined`. */
const pastExamined = (examined: number, maxExamined: number): EmbeddedDbError =>
  new EmbeddedDbError(
    'ExceededExaminedLimit',
    `the operation examined ${examined} documents, more than its maxExamined of ${maxExamined}`,
  );

/**
 * For an operation that ends at once, having examined `examined` documents (an `_id` lookup):
 * checks `limits` as {@link Work} does, and throws past `maxExamined`.
 */
export function checkLimits(limits: WorkLimits, examined: number): void {
  limitOf('maxTimeMS', limits.maxTimeMS, true);
  const maxExamined = limitOf('maxExamined', limits.maxExamined, false);
  if (examined > maxExamined) throw pastExamined(examined, maxExamined);
}

/** One operation's slices and budgets; see the module comment. */
export class Work {
  /** Documents examined so far (as MongoDB's `totalDocsExamined` counts them). */
  examined = 0;
  readonly #maxExamined: number;
  readonly #maxTimeMS: number;
  /** When (`performance.now()`) `maxTimeMS` runs out; `Infinity` without one. */
  readonly #deadline: number;
  #sliceEnd = 0;
  #lastLook = 0;
  #between = FIRST_LOOK_AFTER;
  #countdown = FIRST_LOOK_AFTER;
  readonly #resumed: () => void;
  readonly #sliceMs: number;
  /** Runs before each pause: a write sends the changes of its slice to the journal. */
  beforePause: (() => void) | undefined;

  /**
   * Checks `limits` (BadValue, naming the option, when one is not a non-negative integer;
   * `maxTimeMS: 0` is no limit, as on MongoDB). `resumed` runs after each pause and throws when
   * the operation may not go on (the database closed meanwhile). `sliceMs` other than
   * {@link SLICE_MS} is for tests (0: a pause at every look at the clock).
   */
  constructor(limits: WorkLimits, resumed: () => void, sliceMs = SLICE_MS) {
    this.#maxTimeMS = limitOf('maxTimeMS', limits.maxTimeMS, true);
    this.#maxExamined = limitOf('maxExamined', limits.maxExamined, false);
    this.#resumed = resumed;
    this.#sliceMs = sliceMs;
    const now = performance.now();
    this.#deadline = now + this.#maxTimeMS;
    this.#startSlice(now);
  }

  #startSlice(now: number): void {
    this.#sliceEnd = Math.min(now + this.#sliceMs, this.#deadline);
    this.#lastLook = now;
  }

  /** Counts `count` examined documents; past `maxExamined`, throws ExceededExaminedLimit. */
  examine(count = 1): void {
    this.examined += count;
    if (this.examined > this.#maxExamined) throw pastExamined(this.examined, this.#maxExamined);
  }

  /**
   * Counts one unit of work; true once the slice is over (time to {@link pause}). The clock is
   * read only every so many units, as many as take about {@link LOOK_EVERY_MS}.
   */
  tick(): boolean {
    if (--this.#countdown > 0) return false;
    const now = performance.now();
    // As many units as take about LOOK_EVERY_MS at the cost just measured, but at most twice as
    // many as last time: a unit that suddenly costs more (code still warming up) overruns little.
    const perUnit = (now - this.#lastLook) / this.#between;
    const fit = perUnit > 0 ? Math.floor(LOOK_EVERY_MS / perUnit) : MOST_BETWEEN_LOOKS;
    this.#between = Math.max(1, Math.min(MOST_BETWEEN_LOOKS, 2 * this.#between, fit));
    this.#countdown = this.#between;
    this.#lastLook = now;
    return now >= this.#sliceEnd;
  }

  /** Whether the slice is over, read from the clock now (for loops that do a chunk of work per step). */
  due(): boolean {
    return performance.now() >= this.#sliceEnd;
  }

  #checkTime(now: number): void {
    if (now >= this.#deadline) {
      throw new EmbeddedDbError(
        'MaxTimeMSExpired',
        `operation exceeded time limit: maxTimeMS ${this.#maxTimeMS}`,
      );
    }
  }

  /**
   * Ends the slice: past `maxTimeMS`, throws MaxTimeMSExpired; otherwise lets the event loop
   * run one turn, checks the operation may go on, and starts the next slice.
   */
  async pause(): Promise<void> {
    this.#checkTime(performance.now());
    this.beforePause?.();
    await nextTurn();
    this.#resumed();
    const now = performance.now();
    this.#checkTime(now);
    this.#startSlice(now);
  }

  /**
   * Ends the slice of an operation that may not pause (a single-document write stays atomic):
   * past `maxTimeMS`, throws MaxTimeMSExpired; otherwise starts the next slice at once.
   */
  overrun(): void {
    const now = performance.now();
    this.#checkTime(now);
    this.#startSlice(now);
  }
}

/**
 * Runs `step` again and again, pausing `work` in between, until it returns true (done); it
 * returns false when its slice is over. The work runs in `step`, a plain function: a loop in an
 * async function resumed after a pause runs unoptimized for a while.
 */
export async function runInSlices(work: Work, step: () => boolean): Promise<void> {
  while (!step()) await work.pause();
}

/**
 * {@link runInSlices} for work whose first slice already ran at once (not a promise for work
 * that ends within it) and was not the last: pauses, then steps until `step` returns true.
 */
export async function resumeInSlices(work: Work, step: () => boolean): Promise<void> {
  do await work.pause();
  while (!step());
}

/**
 * Calls `each` on every item of `items`, in slices of `work`: the clock is read every few items
 * (`tick`), or after every one when each costs far more than a test (`costly`).
 */
export async function forEachInSlices<T>(
  items: readonly T[],
  work: Work,
  each: (item: T) => void,
  costly = false,
): Promise<void> {
  let at = 0;
  await runInSlices(work, () => {
    while (at < items.length) {
      each(items[at++] as T);
      if (costly ? work.due() : work.tick()) return at >= items.length;
    }
    return true;
  });
}
