/**
 * `@store/cli`: the `store` command (`serve`, `import`, `export`), also callable as
 * {@link runCli} (tests, scripts).
 */
export { type CliIo, runCli } from './run';
