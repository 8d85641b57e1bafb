// Profiling aid (not part of `npm run bench`): submission of the bench's 10 KB formal report in a closed loop, in
// PROFILE_COMPANIES companies (1 or 100, a reporter in each, no case handler: as `npm run bench`), either
// through submitReport() directly (PROFILE_MODE=direct), as the bench's raw SQL of a submission on a pool of its
// own (PROFILE_MODE=raw, the ceiling), or through the API in this process, called by 50
// keep-alive callers from another process (bench/profile-client.ts; PROFILE_MODE=api), so `node --cpu-prof --import tsx
// bench/profile-submit.ts` profiles where a submission's CPU goes. Prints this process's CPU and the CPU of
// the PostgreSQL backends of its database, per submission. PROFILE_DB names the database (dropped and made anew).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';

import { submitReport } from '../apps/api/src/domain/reports/submit-report.ts';
import { createSession, type SessionUser } from '../apps/api/src/domain/sessions/sessions.ts';
import { backendCpuMs, machineBusyCpuMs, startProfileLoad } from './lib.ts';
import { directDatabase, rawSubmit, tenKilobyteForm } from './scenarios.ts';

const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = process.env.PROFILE_DB ?? 'ansim_profile_submit';
const mode = process.env.PROFILE_MODE ?? 'direct';
const companyCount = Number(process.env.PROFILE_COMPANIES ?? 1);
const iterations = Number(process.env.PROFILE_ITERATIONS ?? 2000);
const concurrency = Number(process.env.PROFILE_CONCURRENCY ?? 50);
const CSRF = 'profile-csrf-token-profile-csrf-token-0123456';

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(server);
url.pathname = `/${name}`;
const deps = await directDatabase(url.toString());
const { database } = deps;

const reporters = await database.query<{ id: string; email: string; company_id: string }>(
  `WITH made AS (INSERT INTO companies (name) SELECT 'profile ' || i FROM generate_series(1, $1::int) AS i RETURNING id, name)
   INSERT INTO users (email, password_hash, name, company_id, email_confirmed_at)
   SELECT 'reporter' || split_part(made.name, ' ', 2) || '@profile.example', 'x', '프로필', made.id, now() FROM made
   RETURNING id, email, company_id`,
  [companyCount],
);
const users: SessionUser[] = reporters.map((row) => ({
  id: row.id,
  email: row.email,
  name: '프로필',
  role: 'member',
  companyId: row.company_id,
}));
const form = tenKilobyteForm();

let result: string;
const raw = mode === 'raw' ? await rawSubmit(url.toString(), database, users) : null;
const cpuBefore = { node: process.cpuUsage(), pg: 0, machine: 0 };
if (mode === 'direct' || raw) {
  let turn = 0;
  const call =
    raw?.task ?? (() => submitReport(deps, { kind: 'account', user: users[turn++ % users.length]! }, form));
  for (let i = 0; i < 200; i++) await call();
  cpuBefore.node = process.cpuUsage();
  cpuBefore.pg = backendCpuMs(name);
  cpuBefore.machine = machineBusyCpuMs();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < iterations) await call();
    }),
  );
  const wall = performance.now() - started;
  result = `${iterations} calls in ${(wall / 1000).toFixed(2)} s: ${((iterations / wall) * 1000).toFixed(0)}/s`;
} else {
  const app = await buildApp({ config: deps.config, database, logger: false });
  const cookies: string[] = [];
  for (const user of users)
    cookies.push(`sessionid=${(await createSession(database, user.id, deps.config)).id}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const load = await startProfileLoad({
    port,
    method: 'POST',
    path: '/api/v1/report/',
    status: 201,
    headers: { 'content-type': 'application/json', 'x-csrftoken': CSRF },
    cookies: cookies.map((cookie) => `csrftoken=${CSRF}; ${cookie}`),
    body: JSON.stringify(form),
    iterations,
    concurrency,
    warmup: 200,
  });
  cpuBefore.node = process.cpuUsage();
  cpuBefore.pg = backendCpuMs(name);
  cpuBefore.machine = machineBusyCpuMs();
  result = await load.run();
  await app.close();
}
const cpu = process.cpuUsage(cpuBefore.node);
const pgCpu = backendCpuMs(name) - cpuBefore.pg;
const machineCpu = machineBusyCpuMs() - cpuBefore.machine;
console.info(
  `${mode}, ${companyCount} companies: ${result}; Node CPU ${((cpu.user + cpu.system) / 1000 / iterations).toFixed(3)} ms ` +
    `a submission (user ${(cpu.user / 1000 / iterations).toFixed(3)}, system ${(cpu.system / 1000 / iterations).toFixed(3)}), ` +
    `PostgreSQL CPU ${(pgCpu / iterations).toFixed(3)} ms, machine CPU ${(machineCpu / iterations).toFixed(3)} ms`,
);
// The raw side's pool closes only now: a backend that has ended no longer shows its CPU.
await raw?.close();
await database.close();
