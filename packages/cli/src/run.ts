/**
 * The `store` command: `serve`, `import`, `export`, `backup`, `repair`. Each prints its help
 * with `--help`; a usage error exits 2, any other failure 1, with one line on stderr.
 */
import { isIPv6 } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { createStoreHandler, resolveDialects, type StoreConfig, type StorePlugin } from '@store/core';
import { openapi } from '@store/openapi';
import { answeredHosts, hostCheck, parseAllowedHosts } from './allowed-hosts';
import { backupCommand } from './backup';
import { CliError } from './cli-error';
import { exportCollections, importCollections, occupied } from './collections';
import { formatDataFile, readDataFile } from './data-file';
import { accessLines, corsOption } from './local-access';
import { listen, onLoopback, storeServer } from './node-server';
import { writePrivateFile } from './private-file';
import type { ProgressStream } from './progress';
import { repairDataDirectory } from './repair';
import { openTarget, type Target } from './target';

/** The reference page's plugin, by name: a config that brings its own keeps it. */
const OPENAPI_NAME = '@store/openapi';

/** Where the command writes; tests pass their own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** `store export` without a file writes the whole document here. */
  write(text: string): void;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM): ends `serve`. */
  stopped: Promise<string>;
  /** Where an import's progress bars are drawn, on a terminal only (the binary: stderr); none when absent. */
  progress?: ProgressStream;
}

const STORAGE_FLAGS = `  --db <uri>        a MongoDB connection string with a database name (mongodb://host:27017/mydb)
  --data <dir>      keep the data in this directory (every write on disk before it is answered;
                    one process at a time; created readable by its owner only, mode 0700)
                    neither: in memory, gone when the command exits (STORE_DATA sets --data)`;

const HELP = {
  store: `Usage: store <command> [options]

Commands:
  serve             serve every resource over REST (json-server style: open to anyone)
  import <file>     load the collections of a JSON file (json-server's db.json works as is)
  export [file]     write every collection as JSON (to stdout without a file)
  backup <dest>     copy a data directory consistently, also while it is served
  repair            open a data directory whose journal is damaged, keeping every intact record

Run "store <command> --help" for a command's options. "store --version" prints the version.`,
  serve: `Usage: store serve [options]

Serves GET/POST /<resources>, GET/PUT/PATCH/DELETE /<resources>/<id> and the whole query
language for any plural name, with no set-up.

${STORAGE_FLAGS}
  --seed <file>     load this JSON file at start, when its collections are empty (as "store
                    import" does: all or nothing, internal collections refused)
  --include-internal
                    let --seed load the store's internal collections (svc-sessions, ...)
  --port <n>        port to listen on (default 3000, or PORT)
  --host <host>     address to listen on (default 127.0.0.1, or HOST). On a loopback address
                    (127.0.0.1, localhost, ::1) it answers only requests for the names
                    localhost, 127.0.0.1, [::1] and <host>: another Host gets 403
                    host_not_allowed, so a site cannot reach it through DNS rebinding. On any
                    other address (0.0.0.0) other machines can reach it and every Host is
                    answered (no such check): for a trusted network only
  --allowed-hosts <names>
                    more names a loopback server answers, comma-separated: a.test, or .a.test
                    for a.test and its subdomains; list only names whose address you control
                    (a name of someone else's can be pointed at 127.0.0.1 by its owner)
  --config <file>   a store.config.js / .mjs whose default export is createStore's config
  --cors <origins>  the web pages (origins) a browser lets call the store: "loopback"
                    (default: pages on localhost, 127.0.0.1, [::1], http or https, any port),
                    "*" (every site: any page open in a browser here can read, change and
                    delete the data), a comma-separated list of origins, or "off"; it
                    overrides the config's cors
  --no-docs         no API reference: /openapi.json and the /docs page are on by default
  --no-dialects     read only the store's own query language: json-server's parameters
                    (_sort, _page, _embed, views_gte, ...) and simple-rest's (filter, range,
                    sort) are on by default, as are X-Total-Count, Link and Content-Range
  --no-id           name the primary key _id on the wire: by default it is shown and read
                    as id (a db.json's "id": 1 stays the number 1, at /posts/1)
  -h, --help        this help`,
  import: `Usage: store import <file.json> [options]

Loads an object of arrays ({ "posts": [...], "comments": [...] }): each array becomes a
collection. json-server's db.json imports as is: "id" is stored as _id (its value and type
kept: "id": 1 stays the number 1), and store serve shows it as id again (its default; with
--no-id, as _id); members that are not arrays (such as "profile") are reported and left out.
Extended JSON keeps ObjectIds and dates.
All or nothing: every document is checked first (an _id twice, an array as _id), then the
collections are written in batches and made visible in one last step, so a failure or a crash
leaves the data as it was. The store's internal collections (svc-sessions, svc-magic-links,
svc-magic-codes, svc-rate-limits) are refused; "users" imports like any other collection.

${STORAGE_FLAGS}
  --replace         replace what the collections already hold (else that is refused)
  --include-internal
                    import the store's internal collections too (sessions, sign-in secrets)
  -h, --help        this help`,
  export: `Usage: store export [file.json] [options]

Writes every collection as one JSON object of arrays (Extended JSON: ObjectIds and dates kept),
to the file, or to stdout without one. "store import" reads it back. The file is
readable by its owner only (mode 0600): it holds every document.

${STORAGE_FLAGS}
  -h, --help        this help`,
  backup: `Usage: store backup --data <dir> <dest>

Copies the data directory <dir> to <dest> (a new or empty directory, created with mode 0700,
its files 0600), consistent even while "store serve" has <dir> open and writes: the snapshot,
then the journals in order, the newest up to its last whole record, started again if a
compaction ran meanwhile. The copy is then opened to check it. Open it with --data <dest>.

  --data <dir>      the data directory to copy (STORE_DATA sets it)
  -h, --help        this help`,
  repair: `Usage: store repair --data <dir>

A start refuses a data directory whose journal is damaged (a flipped bit, a bad sector) with
intact records after the damage, naming the file and the byte. This opens it anyway: the
damaged bytes are set aside in a file beside the journal (journal-<n>.log.damaged-<time>),
every intact record is kept, and each step is reported. The records the damage covered are
lost: restore them from a backup (store backup) if you have one. Stop the store first.

  --data <dir>      the data directory to repair (STORE_DATA sets it)
  -h, --help        this help`,
} as const;

const STORAGE_OPTIONS = {
  db: { type: 'string' },
  data: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

function parse<O extends ParseArgsConfig['options']>(command: keyof typeof HELP, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${HELP[command]}`, 2);
  }
}

/** `--data`, or STORE_DATA when neither --db nor --data is given. */
function storageFlags(
  values: { db?: string | undefined; data?: string | undefined },
  env: NodeJS.ProcessEnv,
) {
  const data = values.data ?? (values.db === undefined ? env.STORE_DATA || undefined : undefined);
  return { db: values.db, data };
}

function portOf(raw: string | undefined): number {
  const port = Number(raw ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--port must be a port number (0-65535), got "${raw}"`, 2);
  }
  return port;
}

async function loadConfig(path: string): Promise<StoreConfig> {
  try {
    const loaded = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
    const config = loaded.default;
    if (typeof config !== 'object' || config === null) {
      throw new Error('its default export must be an object: the config createStore takes');
    }
    return config as StoreConfig;
  } catch (error) {
    throw new CliError(`cannot load --config ${path}: ${(error as Error).message}`);
  }
}

/**
 * The API reference (`@store/openapi`: `/openapi.json` and `/docs`), on unless `--no-docs`, the
 * config brings its own, or a collection is named `docs` (then said, and that collection is served).
 */
async function docsPlugin(
  target: Target,
  configured: readonly StorePlugin[] | undefined,
  off: boolean,
  io: CliIo,
): Promise<StorePlugin[]> {
  if (off || configured?.some((plugin) => plugin.name === OPENAPI_NAME)) return [];
  if ((await target.collectionNames()).includes('docs')) {
    io.out('no /docs page: a collection is named "docs" and is served at /docs instead');
    return [];
  }
  return [openapi({ title: 'store serve' })];
}

/**
 * `dialects` and `wireId` of `store serve`: both dialects and `id` unless `--no-dialects` /
 * `--no-id` say otherwise, else what the config says, else on.
 */
function clientOptions(
  values: { 'no-dialects'?: boolean | undefined; 'no-id'?: boolean | undefined },
  config: StoreConfig,
): Pick<StoreConfig, 'dialects' | 'wireId'> {
  return {
    dialects: values['no-dialects'] === true ? false : (config.dialects ?? true),
    wireId: values['no-id'] === true ? '_id' : (config.wireId ?? 'id'),
  };
}

/** Where `store serve` writes: never into the seed file, which is only read. */
function writesLine(flags: { db?: string | undefined; data?: string | undefined }, seed: string | undefined) {
  const where =
    flags.db !== undefined
      ? 'writes go to the MongoDB database'
      : flags.data !== undefined
        ? `writes go to the data directory ${flags.data}`
        : 'writes go to memory: lost when the command exits (--data <dir> keeps them)';
  return seed === undefined ? where : `${where}; ${seed} is only read, never written`;
}

/**
 * Opens the storage of `store serve` and loads the `--seed` file into it, when its collections
 * are empty. A function of its own, so that the file as read (every document parsed) is gone
 * once loaded: `serve` runs as long as the server, and whatever it holds stays in memory.
 */
async function openSeeded(
  flags: { db?: string | undefined; data?: string | undefined },
  seedPath: string | undefined,
  includeInternal: boolean,
  io: CliIo,
): Promise<Target> {
  const seed = seedPath === undefined ? undefined : readDataFile(seedPath);
  const target = await openTarget(flags);
  if (seed === undefined) return target;
  try {
    const taken = await occupied(target, seed);
    if (taken.length === 0) {
      const seeded = await importCollections(target, seed, {
        replace: false,
        includeInternal,
        progressTo: io.progress,
      });
      io.out(`seeded from ${seedPath}: ${seeded.map(([name, count]) => `${name} (${count})`).join(', ')}`);
      if (seed.skipped.length > 0) io.out(`left out of the seed (not arrays): ${seed.skipped.join(', ')}`);
    } else {
      io.out(`--seed skipped: ${taken.map(([name]) => name).join(', ')} already hold documents`);
    }
  } catch (error) {
    await target.close();
    throw error;
  }
  return target;
}

async function serve(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parse('serve', args, {
    ...STORAGE_OPTIONS,
    seed: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    config: { type: 'string' },
    cors: { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'no-docs': { type: 'boolean' },
    'no-dialects': { type: 'boolean' },
    'no-id': { type: 'boolean' },
    'include-internal': { type: 'boolean' },
  });
  if (values.help) return help(io, 'serve');
  const port = portOf(values.port ?? env.PORT);
  const host = values.host ?? env.HOST ?? '127.0.0.1';
  const allowedHosts = parseAllowedHosts(values['allowed-hosts']);
  const { db: configDb, data: configData, ...config } = values.config ? await loadConfig(values.config) : {};
  const cors = corsOption(values.cors, config.cors);
  const flags = storageFlags(values, env);
  if (flags.db === undefined && flags.data === undefined) {
    flags.db = typeof configDb === 'string' ? configDb : undefined;
    flags.data = configData;
  }
  const target = await openSeeded(flags, values.seed, values['include-internal'] === true, io);
  try {
    const docs = await docsPlugin(target, config.plugins, values['no-docs'] === true, io);
    const client = clientOptions(values, config);
    const handler = createStoreHandler({
      ...config,
      db: target.db,
      cors,
      // Rate limits per client on, with core's defaults (a config's own rateLimit, false included, wins).
      rateLimit: config.rateLimit ?? true,
      // Clients written for json-server, react-admin or Refine work as they are (a flag, then the
      // config, decides otherwise).
      ...client,
      plugins: [...(config.plugins ?? []), ...docs],
    });
    await handler.ready.catch((error: Error) => {
      throw new CliError(`cannot start the store: ${error.message}`);
    });
    const server = storeServer(
      handler,
      hostCheck(host, allowedHosts),
      resolveDialects(client.dialects).foreign,
    );
    await listen(server, port, host).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use: stop what uses it, or choose another with --port`
          : `cannot listen on ${host}:${port}: ${error.message}`,
      );
    });
    const address = server.address();
    const url = `http://${isIPv6(host) ? `[${host}]` : host}:${typeof address === 'object' && address ? address.port : port}`;
    io.out(`store serving ${url}`);
    io.out(`engine: ${target.description}`);
    io.out(writesLine(flags, values.seed));
    const access = {
      loopback: onLoopback(server),
      host,
      answeredHosts: answeredHosts(host, allowedHosts),
      allowedHosts: values['allowed-hosts'] !== undefined,
      corsFlag: values.cors,
      corsFromConfig: values.cors === undefined && config.cors !== undefined,
    };
    for (const line of accessLines(access)) io.out(line);
    io.out(`try: curl ${url}/posts`);
    if (docs.length > 0) io.out(`reference: ${url}/docs`);
    const signal = await io.stopped;
    io.out(`${signal}: stopping`);
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await handler.close();
    return 0;
  } finally {
    await target.close();
  }
}

async function importCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parse('import', args, {
    ...STORAGE_OPTIONS,
    replace: { type: 'boolean' },
    'include-internal': { type: 'boolean' },
  });
  if (values.help) return help(io, 'import');
  const [path, extra] = positionals;
  if (path === undefined || extra !== undefined) {
    throw new CliError(`store import takes one file\n\n${HELP.import}`, 2);
  }
  const file = readDataFile(path);
  const target = await openTarget(storageFlags(values, env));
  try {
    const imported = await importCollections(target, file, {
      replace: values.replace === true,
      includeInternal: values['include-internal'] === true,
      progressTo: io.progress,
    });
    io.out(
      `imported into ${target.description}: ${imported.map(([name, n]) => `${name} (${n})`).join(', ') || 'nothing'}`,
    );
    if (file.skipped.length > 0) io.out(`left out (not arrays): ${file.skipped.join(', ')}`);
    return 0;
  } finally {
    await target.close();
  }
}

async function exportCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parse('export', args, STORAGE_OPTIONS);
  if (values.help) return help(io, 'export');
  if (positionals.length > 1) throw new CliError(`store export takes at most one file\n\n${HELP.export}`, 2);
  const target = await openTarget(storageFlags(values, env));
  try {
    const text = formatDataFile(await exportCollections(target));
    const [path] = positionals;
    if (path === undefined) io.write(text);
    else {
      writePrivateFile(path, text);
      io.err(`exported ${target.description} to ${path}`);
    }
    return 0;
  } finally {
    await target.close();
  }
}

function help(io: CliIo, command: keyof typeof HELP): number {
  io.out(HELP[command]);
  return 0;
}

/** `--data <dir>` (or STORE_DATA) and the positionals of a command that works on a data directory only. */
function dataDirectory(command: 'backup' | 'repair', args: string[], env: NodeJS.ProcessEnv) {
  const { values, positionals } = parse(command, args, {
    data: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return undefined;
  const data = values.data ?? (env.STORE_DATA || undefined);
  const wanted = command === 'backup' ? 1 : 0;
  if (data === undefined || positionals.length !== wanted) {
    const usage = command === 'backup' ? '--data <dir> and one destination' : '--data <dir> only';
    throw new CliError(`store ${command} takes ${usage}\n\n${HELP[command]}`, 2);
  }
  return { data, positionals };
}

async function backup(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = dataDirectory('backup', args, env);
  if (!parsed) return help(io, 'backup');
  return backupCommand(parsed.data, parsed.positionals[0] as string, io.out);
}

async function repair(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = dataDirectory('repair', args, env);
  if (!parsed) return help(io, 'repair');
  return repairDataDirectory(parsed.data, io.out);
}

const COMMANDS = { serve, import: importCommand, export: exportCommand, backup, repair } as const;

/**
 * Runs the command line `args` (without `node` and the script) and answers the exit code.
 * Failures are printed, not thrown.
 */
export async function runCli(
  args: string[],
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
  version = '',
): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help')
      return help(io, 'store');
    if (command === '--version' || command === '-v') {
      io.out(version);
      return 0;
    }
    if (!Object.hasOwn(COMMANDS, command))
      throw new CliError(`unknown command "${command}"\n\n${HELP.store}`, 2);
    return await COMMANDS[command as keyof typeof COMMANDS](rest, io, env);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`store: ${error.message}`);
      return error.exitCode;
    }
    io.err(`store: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}
