// Profiling aid (not part of `npm run bench`): seeds a company once into its own database and calls the list's
// domain function in a closed loop, so `node --cpu-prof --import tsx bench/profile-list.ts` shows where a list
// call's CPU goes. PROFILE_DB names the database (kept between runs); PROFILE_REPORTS its size.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { listCompanyReports, managerListQuery } from '../apps/api/src/domain/manager/list-reports.ts';
import { submitReport } from '../apps/api/src/domain/reports/submit-report.ts';
import { backendCpuMs, machineBusyCpuMs } from './lib.ts';
import { directDatabase, seedManyReports, typicalForm } from './scenarios.ts';

const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = process.env.PROFILE_DB ?? 'ansim_profile';
const total = Number(process.env.PROFILE_REPORTS ?? 20_000);
const iterations = Number(process.env.PROFILE_ITERATIONS ?? 3000);
const concurrency = Number(process.env.PROFILE_CONCURRENCY ?? 10);
const params = Object.fromEntries(new URLSearchParams(process.env.PROFILE_QUERY ?? ''));

const admin = new pg.Client({ connectionString: server });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
if (!exists) await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(server);
url.pathname = `/${name}`;
const deps = await directDatabase(url.toString());
const { database } = deps;

let [company] = await database.query<{ id: string }>(`SELECT id FROM companies WHERE name = 'profile'`);
if (!company) {
  [company] = await database.query<{ id: string }>(
    `INSERT INTO companies (name) VALUES ('profile') RETURNING id`,
  );
  const users = await database.query<{ id: string; email: string; role: string }>(
    `INSERT INTO users (email, password_hash, name, company_id, role, email_confirmed_at)
     SELECT 'user' || i || '@profile.example', 'x', '프로필', $1, CASE WHEN i = 0 THEN 'member' ELSE 'manager' END, now()
     FROM generate_series(0, 10) AS i RETURNING id, email, role`,
    [company!.id],
  );
  const member = users.find((user) => user.role === 'member')!;
  const { id } = await submitReport(
    deps,
    {
      kind: 'account',
      user: { id: member.id, email: member.email, name: '프로필', role: 'member', companyId: company!.id },
    },
    typicalForm(),
  );
  console.info('seeding', total);
  await seedManyReports(url.toString(), id, total, database);
}
const managers = await database.query<{ id: string }>(
  `SELECT id FROM users WHERE company_id = $1 AND role = 'manager' ORDER BY email`,
  [company!.id],
);
const query = managerListQuery.parse(params);
const call = (caller: number) =>
  listCompanyReports(
    database,
    { userId: managers[caller % managers.length]!.id, name: '', companyId: company!.id, role: 'manager' },
    query,
  );
for (let i = 0; i < 200; i++) await call(i);
const cpuBefore = process.cpuUsage();
const pgBefore = backendCpuMs(name);
const machineBefore = machineBusyCpuMs();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async (_, caller) => {
    while (next++ < iterations) await call(caller);
  }),
);
const wall = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
console.info(
  `${iterations} calls in ${(wall / 1000).toFixed(2)} s: ${((iterations / wall) * 1000).toFixed(0)}/s, ` +
    `Node CPU ${((cpu.user + cpu.system) / 1000 / iterations).toFixed(3)} ms a call (user ${(cpu.user / 1000 / iterations).toFixed(3)}, system ${(cpu.system / 1000 / iterations).toFixed(3)}), ` +
    `PostgreSQL CPU ${((backendCpuMs(name) - pgBefore) / iterations).toFixed(3)} ms, ` +
    `machine CPU ${((machineBusyCpuMs() - machineBefore) / iterations).toFixed(3)} ms`,
);
await database.close();
