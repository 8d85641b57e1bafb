// `node --import tsx bench/upload-starvation.ts`: how long another company's member waits for a 600-byte
// photo while one caller (an anonymous draft of company A, one intake token) has three inflating Word packages
// processed at once, beside the same upload on an idle server, measured in turns in one run.
//
// The server is the real process on PostgreSQL (its own database, created and dropped, on
// BENCH_DATABASE_URL / TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), production mode,
// default metadata pool. The upload limits are lifted: the attacker here sends more packages an hour than its
// limit lets through, because what is measured is the queue, not the limit. Each loaded round sends two kinds
// of package: the 240 MB-of-XML package of the original finding (refused at the inflation cap) and the
// heaviest package the cap still reads (just under it), the latter being the one that really holds a worker.
// UPLOAD_ROUNDS (4) and UPLOAD_SAMPLES (5 a round and side) shrink or grow the run. Prints a table and
// writes bench/results/upload-starvation.json.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import pg from 'pg';
import { MIN_INFLATED_BUDGET } from '../apps/api/src/lib/zip-archive.ts';
import { jpegWithGps } from '../apps/api/test/fixtures.ts';
import { inflatingPackage } from '../apps/api/test/metadata-fixtures.ts';
import { freePort, repoRoot, startProcess, stopProcess, waitForHttp } from './lib.ts';

const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const rounds = Number(process.env.UPLOAD_ROUNDS ?? 4);
const samples = Number(process.env.UPLOAD_SAMPLES ?? 5);
const CSRF = 'bench-csrf-token-upload-starvation';
const PASSWORD = '안전한-비밀번호-2026!';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function sql<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

function headers(cookie = '', extra: Record<string, string> = {}) {
  return {
    'x-csrftoken': CSRF,
    cookie: `csrftoken=${CSRF}${cookie ? `; ${cookie}` : ''}`,
    ...extra,
  };
}

async function member(base: string, url: string, email: string): Promise<string> {
  const created = await fetch(`${base}/api/v1/user/`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, name: '벤치' }),
  });
  if (created.status !== 201) throw new Error(`register failed: ${created.status}`);
  await sql(
    url,
    `UPDATE users SET email_confirmed_at = now(),
            company_id = (SELECT company_id FROM company_domains WHERE domain = split_part($1, '@', 2))
      WHERE email = $1`,
    [email],
  );
  const challenge = await (await fetch(`${base}/api/v1/captcha/challenge`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  const response = await fetch(`${base}/api/v1/token/`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, captcha }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('sessionid='));
  if (response.status !== 200 || !cookie) throw new Error(`login failed: ${response.status}`);
  return cookie.split(';')[0]!;
}

async function company(url: string, name: string, domain: string): Promise<void> {
  const [row] = await sql<{ id: string }>(url, 'INSERT INTO companies (name) VALUES ($1) RETURNING id', [
    name,
  ]);
  await sql(url, 'INSERT INTO company_domains (domain, company_id) VALUES ($1, $2)', [domain, row!.id]);
}

async function uploadFile(
  base: string,
  auth: Record<string, string>,
  name: string,
  bytes: Buffer,
  type: string,
): Promise<{ status: number; metadata?: string; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/file/`, { method: 'POST', headers: auth, body: form });
  const body = (await response.json()) as { metadata?: string };
  return { status: response.status, metadata: body.metadata, ms: performance.now() - started };
}

const packageLabel = (p: { kind: string; status: number; metadata?: string }) =>
  `${p.kind} → ${p.status} ${p.metadata ?? ''}`.trim();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function summary(values: number[]) {
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    samples: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    max: round(Math.max(...values)),
  };
}

async function main(): Promise<void> {
  const name = `ansim_upload_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-upload-bench-'));
  const server = startProcess('apps/api/src/server.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    ENCRYPTION_KEY: 'b3'.repeat(32),
    LOG_LEVEL: 'warn',
    PUBLIC_URL: base,
    ALTCHA_MAX_NUMBER: '100',
    DATA_DIR: dataDir,
    MAIL_POLL_MS: '600000',
    UPLOADS_PER_CALLER_PER_HOUR: '1000000',
    UPLOADS_PER_IP_PER_HOUR: '1000000',
    UPLOAD_BYTES_PER_CALLER_PER_HOUR: '1000000000000',
    UPLOAD_BYTES_PER_IP_PER_HOUR: '1000000000000',
  });
  const started = Date.now();
  try {
    await waitForHttp(`${base}/api/health`, 120_000);
    await company(databaseUrl, '공격받는회사', 'a.example');
    await company(databaseUrl, '다른회사', 'b.example');
    const attacker = await member(base, databaseUrl, 'attacker@a.example');
    const victim = await member(base, databaseUrl, 'victim@b.example');
    const intake = await fetch(`${base}/api/v1/intake/`, {
      method: 'POST',
      headers: { ...headers(attacker), 'content-type': 'application/json' },
      body: '{}',
    });
    if (intake.status !== 201) throw new Error(`intake failed: ${intake.status}`);
    const { token } = (await intake.json()) as { token: string };
    const draftAuth = headers('', { 'x-intake-token': token });
    const victimAuth = headers(victim);

    const photo = jpegWithGps(`owner ${'x'.repeat(248)}`);
    const findingPackage = inflatingPackage(240 * 1024 * 1024);
    const heaviestPackage = inflatingPackage(MIN_INFLATED_BUDGET - 64 * 1024);
    console.info(
      `photo ${photo.length} B; finding's package ${findingPackage.length} B → 240 MB of XML; heaviest under the cap ${heaviestPackage.length} B → ${(MIN_INFLATED_BUDGET / 1048576).toFixed(0)} MiB`,
    );
    // Warm-up: workers started, parsers loaded.
    await uploadFile(base, victimAuth, 'warm.jpg', photo, 'image/jpeg');

    const idle: number[] = [];
    const loaded: number[] = [];
    const packages: Array<{ kind: string; ms: number; metadata?: string; status: number }> = [];
    for (let round = 0; round < rounds; round += 1) {
      const sides = round % 2 === 0 ? (['idle', 'loaded'] as const) : (['loaded', 'idle'] as const);
      for (const side of sides) {
        if (side === 'idle') {
          for (let n = 0; n < samples; n += 1) {
            const result = await uploadFile(base, victimAuth, '사진.jpg', photo, 'image/jpeg');
            if (result.status !== 201) throw new Error(`idle photo: ${result.status}`);
            idle.push(result.ms);
          }
          continue;
        }
        // Three packages under one intake token at once: the finding's one and two of the heaviest.
        const inFlight = [
          { kind: "finding's package (240 MB of XML)", bytes: findingPackage },
          { kind: 'heaviest package under the cap', bytes: heaviestPackage },
          { kind: 'heaviest package under the cap', bytes: heaviestPackage },
        ].map(({ kind, bytes }) =>
          uploadFile(base, draftAuth, '진술서.docx', bytes, DOCX).then((result) => {
            packages.push({ kind, ...result });
            return result;
          }),
        );
        let pending = inFlight.length;
        for (const upload of inFlight) void upload.finally(() => (pending -= 1));
        // Photos one after another while a package is still being processed; a photo counts only if at least
        // one package was still in flight when it was answered.
        let taken = 0;
        while (taken < samples && pending > 0) {
          const result = await uploadFile(base, victimAuth, '사진.jpg', photo, 'image/jpeg');
          if (result.status !== 201) throw new Error(`loaded photo: ${result.status}`);
          if (pending > 0) {
            loaded.push(result.ms);
            taken += 1;
          }
        }
        await Promise.all(inFlight);
      }
    }
    const results = {
      at: new Date().toISOString(),
      seconds: Math.round((Date.now() - started) / 1000),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
      photoBytes: photo.length,
      idle: summary(idle),
      loaded: summary(loaded),
      packages: [...new Set(packages.map(packageLabel))].map((kind) => ({
        kind,
        ...summary(packages.filter((p) => packageLabel(p) === kind).map((p) => p.ms)),
      })),
    };
    for (const row of [
      { side: 'idle server', ...results.idle },
      { side: 'three packages of one intake token in progress', ...results.loaded },
      ...results.packages.map(({ kind, ...rest }) => ({ side: kind, ...rest })),
    ])
      console.info(`${row.side}: n=${row.samples} p50 ${row.p50} ms, p95 ${row.p95} ms, max ${row.max} ms`);
    console.info(
      `load average at the end: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' / ')}`,
    );
    const out = path.join(repoRoot, 'bench/results/upload-starvation.json');
    fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.info(`written to ${path.relative(repoRoot, out)}`);
  } finally {
    await stopProcess(server);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
