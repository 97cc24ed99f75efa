// The command line of a bench script: `--name=value` or `--name value`, `--quick`, and numbers
// that must be positive (anything else ends the script with a message, never a NaN measured).

/** The options of `argv` (the script's own arguments). */
export function benchArgs(argv = process.argv.slice(2)) {
  const quick = argv.includes('--quick');
  /** `--name=value` or `--name value`; undefined when absent. */
  const option = (name) => {
    const at = argv.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (at === -1) return undefined;
    return argv[at].includes('=') ? argv[at].slice(name.length + 3) : argv[at + 1];
  };
  /** `--name` as a positive number, else `short` with `--quick`, else `full`. */
  const number = (name, full, short = full) => {
    const value = Number(option(name) ?? (quick ? short : full));
    if (!Number.isFinite(value) || value <= 0) {
      console.error(`--${name}: expected a positive number, got ${option(name)}`);
      process.exit(1);
    }
    return value;
  };
  return { args: argv, quick, option, number };
}
