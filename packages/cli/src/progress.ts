/**
 * A progress line for long imports, on a terminal only (`stream.isTTY`): `posts 1,200/5,000
 * [#####-----------] 24%`, redrawn at most every 100 ms and ended with a newline.
 */
const WIDTH = 24;
const EVERY_MS = 100;

export interface Progress {
  update(done: number): void;
  end(): void;
}

export function progress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  if (!stream.isTTY || total === 0) return { update() {}, end() {} };
  let drawnAt = 0;
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
      const now = Date.now();
      if (now - drawnAt < EVERY_MS) return;
      drawnAt = now;
      draw(done);
    },
    end() {
      draw(total);
      stream.write('\n');
    },
  };
}
