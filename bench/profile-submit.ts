// Profiling aid (not part of `npm run bench`): submission of the bench's 10 KB formal report in a closed loop, in
// PROFILE_COMPANIES companies (1 or 100, a reporter in each, no case handler: as `npm run bench`), either
// through submitReport() directly (PROFILE_MODE=direct) or through the API in this process, called by 50
// keep-alive callers from another process (PROFILE_MODE=api), so `node --cpu-prof --import tsx
// bench/profile-submit.ts` profiles where a submission's CPU goes. Prints this process's CPU and the CPU of
// the PostgreSQL backends of its database, per submission. PROFILE_DB names the database (dropped and made anew).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';

import { submitReport } from '../apps/api/src/domain/reports/submit-report.ts';
import { createSession, type SessionUser } from '../apps/api/src/domain/sessions/sessions.ts';
import { directDatabase, tenKilobyteForm } from './scenarios.ts';

const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = process.env.PROFILE_DB ?? 'ansim_profile_submit';
const mode = process.env.PROFILE_MODE ?? 'direct';
const companyCount = Number(process.env.PROFILE_COMPANIES ?? 1);
const iterations = Number(process.env.PROFILE_ITERATIONS ?? 2000);
const concurrency = Number(process.env.PROFILE_CONCURRENCY ?? 50);
const CSRF = 'profile-csrf-token-profile-csrf-token-0123456';

/** The load: keep-alive callers over node:http, in a process of its own, so this process's CPU is the server's. */
const CLIENT = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
(async () => {
  const { port, cookies, body, iterations, concurrency, warmup } = JSON.parse(process.argv[1]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let turn = 0;
  const post = () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        { port, host: '127.0.0.1', method: 'POST', path: '/api/v1/report/', agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
                     'x-csrftoken': '${CSRF}', cookie: 'csrftoken=${CSRF}; ' + cookies[turn++ % cookies.length] } },
        (response) => {
          response.resume();
          response.on("end", () => (response.statusCode === 201 ? resolve() : reject(new Error(String(response.statusCode)))));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  for (let i = 0; i < warmup; i++) await post();
  process.stdout.write('warm\\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const times = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < iterations) { const t = performance.now(); await post(); times.push(performance.now() - t); }
  }));
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.floor(times.length * p)].toFixed(0);
  console.log(\`\${times.length} requests in \${(wall / 1000).toFixed(2)} s: \${((times.length / wall) * 1000).toFixed(0)}/s, p50 \${q(0.5)} ms, p95 \${q(0.95)} ms\`);
  process.exit(0);
})();
`;

/** CPU (user + system, ms) of every PostgreSQL backend connected to the profile's database. */
function backendCpuMs(): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${name} `)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

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
const cpuBefore = { node: process.cpuUsage(), pg: 0 };
if (mode === 'direct') {
  let turn = 0;
  const call = () => submitReport(deps, { kind: 'account', user: users[turn++ % users.length]! }, form);
  for (let i = 0; i < 200; i++) await call();
  cpuBefore.node = process.cpuUsage();
  cpuBefore.pg = backendCpuMs();
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
  const client = spawn(
    process.execPath,
    [
      '-e',
      CLIENT,
      JSON.stringify({ port, cookies, body: JSON.stringify(form), iterations, concurrency, warmup: 200 }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  await new Promise<void>((resolve) =>
    client.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('warm\n')) {
        output = '';
        resolve();
      }
    }),
  );
  cpuBefore.node = process.cpuUsage();
  cpuBefore.pg = backendCpuMs();
  client.stdin.write('go\n');
  await new Promise((resolve) => client.on('exit', resolve));
  result = output.trim();
  await app.close();
}
const cpu = process.cpuUsage(cpuBefore.node);
const pgCpu = backendCpuMs() - cpuBefore.pg;
console.info(
  `${mode}, ${companyCount} companies: ${result}; Node CPU ${((cpu.user + cpu.system) / 1000 / iterations).toFixed(3)} ms ` +
    `a submission (user ${(cpu.user / 1000 / iterations).toFixed(3)}, system ${(cpu.system / 1000 / iterations).toFixed(3)}), ` +
    `PostgreSQL CPU ${(pgCpu / iterations).toFixed(3)} ms`,
);
await database.close();
