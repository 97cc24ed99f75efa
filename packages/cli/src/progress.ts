/**
 * A progress line for long imports, on a terminal only (`stream.isTTY`): `posts 1,200/5,000
 * [#####-----------] 24%`, redrawn at most every 100 ms and ended with a newline. It ends at the
 * count reached, so an import that fails part-way does not show 100%.
 */
const WIDTH = 24;
const EVERY_MS = 100;

/** Where a progress line is drawn: `process.stderr`, or a test's stand-in. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  update(done: number): void;
  end(): void;
}

export function progress(label: string, total: number, stream: ProgressStream | undefined): Progress {
  if (stream?.isTTY !== true || total === 0) return { update() {}, end() {} };
  let drawnAt = 0;
  let reached = 0;
  const draw = (done: number) => {
    const filled = Math.round((done / total) * WIDTH);
    const percent = Math.floor((done / total) * 100);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    stream.write(
      `\r${label} ${done.toLocaleString('en')}/${total.toLocaleString('en')} [${bar}] ${percent}%`,
    );
  };
  return {
    update(done) {
      reached = done;
      const now = Date.now();
      if (now - drawnAt < EVERY_MS) return;
      drawnAt = now;
      draw(done);
    },
    end() {
      draw(reached);
      stream.write('\n');
    },
  };
}
