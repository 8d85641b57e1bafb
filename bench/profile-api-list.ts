// Profiling aid (not part of `npm run bench`): the API in this process on the database bench/profile-list.ts
// seeded, read by ten managers from another process over node:http, so `node --cpu-prof --import tsx
// bench/profile-api-list.ts` profiles the server's thread alone. PROFILE_QUERY is the list's query string.
import { spawn } from 'node:child_process';

/** The load: ten keep-alive callers over node:http, in a process of its own, so that this process's CPU is the server's alone. */
const CLIENT = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
(async () => {
  const { port, cookies, query } = JSON.parse(process.argv[1]);
  const iterations = Number(process.env.PROFILE_ITERATIONS ?? 3000);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  const get = (cookie) =>
    new Promise((resolve, reject) => {
      const request = http.get(
        { port, host: '127.0.0.1', path: \`/api/v1/manager/report/?\${query}\`, agent, headers: { cookie } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
    });
  for (let i = 0; i < 200; i++) if ((await get(cookies[i % cookies.length])) !== 200) throw new Error('status');
  const times = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    cookies.map(async (cookie) => {
      while (next++ < iterations) {
        const t = performance.now();
        await get(cookie);
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.floor(times.length * p)].toFixed(1);
  console.log(
    \`\${times.length} requests in \${(wall / 1000).toFixed(2)} s: \${((times.length / wall) * 1000).toFixed(0)}/s, p50 \${q(0.5)} ms, p95 \${q(0.95)} ms\`,
  );
})();
`;

const { buildApp } = await import('../apps/api/src/app.ts');
const { createSession } = await import('../apps/api/src/domain/sessions/sessions.ts');
const { directDatabase } = await import('./scenarios.ts');
const { loadConfig } = await import('../apps/api/src/config.ts');
const { BENCH_SECRET_KEY, BENCH_ENCRYPTION_KEY } = await import('./scenarios.ts');
const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = new URL(server);
url.pathname = `/${process.env.PROFILE_DB ?? 'ansim_profile'}`;
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
const cpuBefore = process.cpuUsage();
const client = spawn(
  process.execPath,
  ['-e', CLIENT, JSON.stringify({ port, cookies, query: process.env.PROFILE_QUERY ?? '' })],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let result = '';
client.stdout.on('data', (chunk) => {
  result += chunk;
});
await new Promise((resolve) => client.on('exit', resolve));
const cpu = process.cpuUsage(cpuBefore);
const iterations = Number(process.env.PROFILE_ITERATIONS ?? 3000);
console.info(
  `${result.trim()}; server CPU ${((cpu.user + cpu.system) / 1000 / iterations).toFixed(3)} ms a request`,
);
await app.close();
await database.close();
