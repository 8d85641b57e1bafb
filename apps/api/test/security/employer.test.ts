import { execFileSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { type MailWorker, startMailWorker } from '../../src/mail/worker.ts';
import {
  anonymousDraft,
  createCompany,
  createManager,
  jpegWithGps,
  reportBody,
  upload,
} from '../fixtures.ts';
import {
  createTestApp,
  databaseUrl,
  dumpDatabase,
  registerAndLogin,
  type TestClient,
  type TestContext,
} from '../helpers.ts';
import { type SmtpSink, startSmtpSink } from '../smtp-sink.ts';

/**
 * The employer as the adversary (docs/threat-model.md): it reads every mail the product sends to its own
 * domain, every response its managers' browsers get, and the whole database. An anonymous reporter must be
 * found in none of them; a formal reporter goes through the same flows and is found, so the search can fail.
 */

const COMPANY_DOMAIN = 'a.example';

interface Reporter {
  client: TestClient;
  name: string;
  email: string;
  userId: string;
  /** Planted in the evidence's file name and metadata. */
  evidenceSentinel: string;
  reportId: string;
  evidenceId: string;
}

let ctx: TestContext;
let sink: SmtpSink;
let worker: MailWorker;
let manager: TestClient;
let anonymous: Reporter;
let formal: Reporter;
const privateContact = 'private-sentinel-4b1d@personal.example';

async function register(tag: string) {
  const name = `센티넬${tag}이름`;
  const email = `sentinel-${tag.toLowerCase()}@${COMPANY_DOMAIN}`;
  const member = await registerAndLogin(ctx, email, { name });
  const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
  return { member, name, email, userId: user!.id, tag };
}

async function fileReport(
  type: 'anonym' | 'formal',
  { member, name, email, userId, tag }: Awaited<ReturnType<typeof register>>,
): Promise<Reporter> {
  const evidenceSentinel = `EVIDENCE-SENTINEL-${tag}`;
  // A member's browser sends its account cookie along with the anonymous draft's token.
  const client = type === 'anonym' ? await anonymousDraft(ctx, member, { withAccountCookies: true }) : member;
  const evidence = (
    await upload(client, `${evidenceSentinel}_사진.jpg`, jpegWithGps(evidenceSentinel), 'image/jpeg')
  ).json();
  const identity = type === 'anonym' ? {} : { reporter_name: name, reporter_department: '영업팀' };
  const submitted = await client.post('/api/v1/report/', {
    ...reportBody(type, {
      ...identity,
      acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
    }),
    ...(type === 'anonym' ? { contact_email: privateContact } : {}),
  });
  expect(submitted.statusCode).toBe(201);
  const reportId = submitted.json().id as string;
  await client.post(`/api/v1/report/${reportId}/messages`, { body: '녹음 파일도 있습니다.' });
  return {
    client,
    name,
    email,
    userId,
    evidenceSentinel,
    reportId,
    evidenceId: evidence.id,
  };
}

/** What a manager does with a case: every action that could send a mail or show the reporter. */
async function handleCase(reporter: Reporter): Promise<void> {
  const id = reporter.reportId;
  const patch = (json: unknown) =>
    manager.request({ method: 'PATCH', url: `/api/v1/manager/report/${id}`, json });
  expect((await patch({ status: 'investigating', note_for_reporter: '조사를 시작합니다.' })).statusCode).toBe(
    200,
  );
  expect(
    (await manager.post(`/api/v1/manager/report/${id}/messages`, { body: '면담 일정을 잡겠습니다.' }))
      .statusCode,
  ).toBe(201);
  const invited = await manager.post(`/api/v1/manager/report/${id}/invitations`, {
    invitations: [{ kind: 'defendant' }],
  });
  expect(invited.statusCode).toBeLessThan(300);
  const outcome = { finding: 'substantiated', actions: ['warning'], summary: '경고 조치' };
  expect(
    (await patch({ status: 'action_taken', note_for_reporter: '조치를 마쳤습니다.', outcome })).statusCode,
  ).toBe(200);
}

/** Delivers every due mail through real SMTP, as the company's mail server would receive it. */
async function deliverAll(): Promise<void> {
  while ((await worker.runOnce()) > 0);
}

async function mailsToCompanyDomain(): Promise<string> {
  const mails = await Promise.all(
    sink.messages
      .filter((message) => message.to.some((to) => to.endsWith(`@${COMPANY_DOMAIN}`)))
      .map(async (message) => {
        // Decoded as a mail client shows it, besides the raw bytes: a name hidden in base64 is still found.
        const mail = await simpleParser(message.raw);
        return [message.raw, message.to.join(','), mail.subject, mail.text, mail.html || ''].join('\n');
      }),
  );
  return mails.join('\n');
}

let listening: Promise<string> | undefined;

async function firstEvent(id: string): Promise<string> {
  listening ??= ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = await listening;
  const response = await fetch(`${address}/api/v1/manager/report/${id}/events`, {
    headers: { cookie: [...manager.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

/** Every response a manager's browser receives about the case: JSON, CSV, stats, SSE, files and headers. */
async function managerResponses(reporter: Reporter): Promise<Buffer[]> {
  const id = reporter.reportId;
  const parts: Buffer[] = [];
  const collect = (response: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
    parts.push(response.rawPayload, Buffer.from(JSON.stringify(response.headers)));
  };
  collect(await manager.get('/api/v1/manager/report/'));
  collect(await manager.get(`/api/v1/manager/report/?q=${encodeURIComponent('박행위')}`));
  collect(await manager.get(`/api/v1/manager/report/${id}`));
  collect(await manager.get(`/api/v1/manager/report/${id}/messages`));
  collect(await manager.get('/api/v1/manager/report/export.csv'));
  collect(await manager.get('/api/v1/manager/stats/reports'));
  collect(await manager.get('/api/v1/user/'));
  const detail = (await manager.get(`/api/v1/manager/report/${id}`)).json();
  expect(detail.files.length).toBeGreaterThan(0);
  for (const file of detail.files as { id: string }[]) {
    const download = await manager.get(`/api/v1/file/${file.id}/`);
    expect(download.statusCode).toBe(200);
    collect(download);
  }
  parts.push(Buffer.from(await firstEvent(id)));
  return parts;
}

/** A sentinel in any of the encodings a file format may store text in. */
function occurs(haystack: Buffer[], sentinel: string): boolean {
  const needles = [
    Buffer.from(sentinel, 'utf8'),
    Buffer.from(sentinel, 'utf16le'),
    Buffer.from(Buffer.from(sentinel, 'utf16le').swap16()),
  ];
  return haystack.some((part) => needles.some((needle) => part.includes(needle)));
}

interface DumpRow {
  table: string;
  text: string;
  fields: Record<string, string | null>;
}

/**
 * The database as a self-hosting employer copies it: `pg_dump` on PostgreSQL; on embedded PGlite, which has no
 * pg_dump, every row of every table as JSON. Rows come back with their table so account rows can be told apart.
 */
async function dumpRows(): Promise<{ whole: string; rows: DumpRow[] }> {
  const url = databaseUrl(ctx.database);
  if (url) {
    const whole = execFileSync('pg_dump', ['--data-only', '--no-owner', url], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const rows: DumpRow[] = [];
    let table: string | null = null;
    let columns: string[] = [];
    for (const line of whole.split('\n')) {
      const copy = /^COPY public\.(\w+) \((.*)\) FROM stdin;$/.exec(line);
      if (copy) {
        table = copy[1]!;
        columns = copy[2]!.split(', ').map((column) => column.replace(/"/g, ''));
      } else if (line === '\\.') {
        table = null;
      } else if (table) {
        const values = line.split('\t');
        rows.push({
          table,
          text: line,
          fields: Object.fromEntries(
            columns.map((column, i) => [column, values[i] === '\\N' ? null : values[i]!]),
          ),
        });
      }
    }
    return { whole, rows };
  }
  const whole = await dumpDatabase(ctx.database);
  const rows: DumpRow[] = [];
  let table = '';
  for (const line of whole.split('\n')) {
    if (!line.startsWith('{')) {
      table = line.replace(/^public\./, '');
      continue;
    }
    const fields = JSON.parse(line) as Record<string, unknown>;
    rows.push({
      table,
      text: line,
      fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === null ? null : String(v)])),
    });
  }
  return { whole, rows };
}

/** Mails about the account itself (registration, password), not about any report. */
const ACCOUNT_MAIL_TEMPLATES = new Set(['confirm_email', 'already_registered', 'reset_password']);

/**
 * The reporter's own account rows: the account exists by design, with its name and work address. What must
 * not exist is any other row that names the account, above all one that joins it to the report.
 */
function isAccountRow(row: DumpRow, reporter: Reporter): boolean {
  if (row.table === 'users') return row.fields.id === reporter.userId;
  if (['sessions', 'user_tokens', 'pending_receipts'].includes(row.table))
    return row.fields.user_id === reporter.userId;
  if (row.table === 'mail_outbox') return ACCOUNT_MAIL_TEMPLATES.has(row.fields.template ?? '');
  return false;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  ctx = await createTestApp({
    config: { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, ANONYMOUS_NOTICE_DELAY_MAX_SECONDS: '0' },
  });
  worker = startMailWorker({ database: ctx.database, config: ctx.config, logger: ctx.app.log, poll: false });
  await createCompany(ctx, '에이 주식회사', COMPANY_DOMAIN);
  manager = await createManager(ctx, `manager@${COMPANY_DOMAIN}`);
  const anonymousMember = await register('ANON');
  const formalMember = await register('FORMAL');
  // The accounts' own mails (address confirmation) are about the accounts, which exist by design: the search
  // covers everything sent from the first report on.
  await deliverAll();
  sink.messages.length = 0;
  anonymous = await fileReport('anonym', anonymousMember);
  formal = await fileReport('formal', formalMember);
  await handleCase(anonymous);
  await handleCase(formal);
  await deliverAll();
});

afterAll(async () => {
  await worker.stop();
  await ctx.close();
  await sink.close();
});

describe('the employer reading its own mail server', () => {
  it('finds the anonymous reporter in no mail to the company domain, and the notice went elsewhere', async () => {
    const mails = await mailsToCompanyDomain();
    expect(mails.length).toBeGreaterThan(0);
    for (const sentinel of [anonymous.name, anonymous.email, anonymous.userId, anonymous.evidenceSentinel])
      expect(mails.includes(sentinel), `found ${sentinel}`).toBe(false);
    expect(mails.includes(privateContact)).toBe(false);
    // Two notices reached the private address, and say nothing the mail log could tie to the case.
    const notices = sink.messages.filter((message) => message.to.includes(privateContact));
    expect(notices.length).toBeGreaterThanOrEqual(2);
  });

  it('finds the formal reporter, so the search can fail', async () => {
    expect((await mailsToCompanyDomain()).includes(formal.email)).toBe(true);
  });
});

describe('the employer reading every manager response', () => {
  it('finds the anonymous reporter in none of them, in UTF-8, UTF-16LE or UTF-16BE', async () => {
    const responses = await managerResponses(anonymous);
    for (const sentinel of [
      anonymous.name,
      anonymous.email,
      anonymous.userId,
      anonymous.evidenceSentinel,
      privateContact,
    ])
      expect(occurs(responses, sentinel), `found ${sentinel}`).toBe(false);
  });

  it('finds the formal reporter, so the search can fail', async () => {
    const responses = await managerResponses(formal);
    for (const sentinel of [formal.name, formal.email, formal.evidenceSentinel])
      expect(occurs(responses, sentinel), `missing ${sentinel}`).toBe(true);
  });
});

describe('the employer reading a dump of its database', () => {
  it('finds nothing that joins the anonymous report to its reporter', async () => {
    const { whole, rows } = await dumpRows();
    expect(rows.some((row) => row.fields.id === anonymous.reportId)).toBe(true);
    expect(whole.includes(anonymous.evidenceSentinel), 'evidence sentinel').toBe(false);
    expect(whole.includes(privateContact), 'private contact').toBe(false);
    const named = rows.filter(
      (row) =>
        !isAccountRow(row, anonymous) &&
        [anonymous.name, anonymous.email, anonymous.userId].some((sentinel) => row.text.includes(sentinel)),
    );
    expect(
      named.map((row) => `${row.table}: ${row.text.slice(0, 200)}`),
      'rows naming the anonymous reporter',
    ).toEqual([]);
  });

  it('finds the formal reporter joined to their report, so the search can fail', async () => {
    const { rows } = await dumpRows();
    const report = rows.find((row) => row.table === 'reports' && row.fields.id === formal.reportId);
    expect(report?.fields.reporter_id).toBe(formal.userId);
  });
});
