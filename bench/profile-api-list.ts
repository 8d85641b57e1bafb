// Profiling aid (not part of `npm run bench`): the API in this process on the database bench/profile-list.ts
// seeded, read by ten managers from another process (bench/profile-client.ts, the bench's own HTTP client), so
// `node --cpu-prof --import tsx bench/profile-api-list.ts` profiles the server's thread alone. PROFILE_QUERY is the
// list's query string.
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { createSession } from '../apps/api/src/domain/sessions/sessions.ts';
import { backendCpuMs, machineBusyCpuMs, startProfileLoad } from './lib.ts';
import { BENCH_ENCRYPTION_KEY, BENCH_SECRET_KEY, directDatabase } from './scenarios.ts';

const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = new URL(server);
const databaseName = process.env.PROFILE_DB ?? 'ansim_profile';
url.pathname = `/${databaseName}`;
const { database } = await directDatabase(url.toString());
const config = loadConfig({
  DATABASE_URL: url.toString(),
  NODE_ENV: 'production',
  SECRET_KEY: BENCH_SECRET_KEY,
  ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
  PUBLIC_URL: 'http://127.0.0.1',
  LOG_LEVEL: 'warn',
});
const app = await buildApp({ config, database, logger: false });
const managers = await database.query<{ id: string }>(
  `SELECT u.id FROM users u JOIN companies c ON c.id = u.company_id WHERE c.name = 'profile' AND u.role = 'manager'`,
);
await database.query(
  `INSERT INTO mfa_passkeys (user_id, credential_id, public_key, name)
     SELECT id, 'profile-' || id, 'none', 'profile' FROM users WHERE id = ANY($1) ON CONFLICT DO NOTHING`,
  [managers.map((m) => m.id)],
);
const cookies: string[] = [];
for (const m of managers) cookies.push(`sessionid=${(await createSession(database, m.id, config)).id}`);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const iterations = Number(process.env.PROFILE_ITERATIONS ?? 3000);
const load = await startProfileLoad({
  port,
  method: 'GET',
  path: `/api/v1/manager/report/?${process.env.PROFILE_QUERY ?? ''}`,
  status: 200,
  headers: {},
  cookies,
  iterations,
  concurrency: 10,
  warmup: 200,
});
const before = { cpu: process.cpuUsage(), pg: backendCpuMs(databaseName), machine: machineBusyCpuMs() };
const result = await load.run();
const cpu = process.cpuUsage(before.cpu);
const perRequest = (ms: number) => (ms / iterations).toFixed(3);
console.info(
  `${result}; server CPU ${perRequest((cpu.user + cpu.system) / 1000)} ms a request, ` +
    `PostgreSQL CPU ${perRequest(backendCpuMs(databaseName) - before.pg)} ms, ` +
    `machine CPU ${perRequest(machineBusyCpuMs() - before.machine)} ms`,
);
await app.close();
await database.close();
