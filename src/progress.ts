/**
 * @module A progress bar for long operator commands. On a terminal it redraws one line in place, a line
 * per phase (the last phase's line stays as it ended); when the output is a file or a pipe it prints a line
 * per phase and per tenth, so logs stay readable.
 */
const WIDTH = 30;

/** How far a long operation is: `done` of `total`, counted in what `phase` names. */
export interface Progress {
  phase: string;
  done: number;
  total: number;
}

export interface ProgressBar {
  update(progress: Progress): void;
  /** Ends the bar's line. */
  done(): void;
}

export function progressBar(stream: NodeJS.WriteStream): ProgressBar {
  const started = performance.now();
  let lastTenth = -1;
  let lastPhase = '';
  let drawn = false;
  return {
    update({ phase, done, total }) {
      const fraction = total === 0 ? 1 : done / total;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const counts = `${done.toLocaleString('en')}/${total.toLocaleString('en')} ${phase}`;
      if (stream.isTTY) {
        if (drawn && phase !== lastPhase) stream.write('\n');
        lastPhase = phase;
        const filled = Math.round(fraction * WIDTH);
        const bar = `[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}]`;
        stream.write(`\r${bar} ${(fraction * 100).toFixed(0).padStart(3)}% ${counts} ${seconds}s\x1b[K`);
        drawn = true;
        return;
      }
      const tenth = Math.floor(fraction * 10);
      if (phase === lastPhase && tenth === lastTenth) return;
      lastPhase = phase;
      lastTenth = tenth;
      stream.write(`${(fraction * 100).toFixed(0)}% ${counts} ${seconds}s\n`);
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
