import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyDomains, files, users } from '../../src/db/schema.ts';
import {
  AdminCommandError,
  addCompanyDomain,
  createCompany as createCompanyByCli,
} from '../../src/domain/companies/admin.ts';
import { sweepOrphanFiles, UNCITED_UPLOAD_AGE_MS } from '../../src/domain/files/sweep-orphans.ts';
import { type MailWorker, startMailWorker } from '../../src/mail/worker.ts';
import {
  anonymousDraft,
  createCompany,
  createManager,
  createOperatorClient,
  invitationTokenFor,
  inviteeClient,
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
/** The anonymous reporter's photo, once uploaded under their account too (a named draft left unsent). */
let accountCopyId: string;
let anonymousAccount: TestClient;
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
  // The account's own upload (the unsent named draft's photo), never the anonymous report's evidence.
  if (row.table === 'files')
    return row.fields.owner_user_id === reporter.userId && row.fields.id !== reporter.evidenceId;
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
  // The same photo the anonymous report cites, uploaded earlier under the account for a named draft never sent.
  anonymousAccount = anonymousMember.member;
  accountCopyId = (
    await upload(anonymousMember.member, '사진.jpg', jpegWithGps(anonymous.evidenceSentinel), 'image/jpeg')
  ).json().id;
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

describe('the employer joining evidence digests over a database copy', () => {
  it('finds no digest that joins the anonymous evidence to the account copy of the same photo', async () => {
    const download = await manager.get(`/api/v1/file/${anonymous.evidenceId}/`);
    const digest = createHash('sha256').update(download.rawPayload).digest('hex');
    // The same bytes: stripping is deterministic, so only the stored digest could tell them apart.
    const copy = await anonymousMemberDownload();
    expect(createHash('sha256').update(copy).digest('hex')).toBe(digest);
    const { whole, rows } = await dumpRows();
    expect(whole.includes(digest), 'plaintext digest in the dump').toBe(false);
    const fileRows = rows.filter((row) => row.table === 'files');
    const digests = new Map<string, string[]>();
    for (const row of fileRows) {
      const value = row.fields.sha256 ?? '';
      digests.set(value, [...(digests.get(value) ?? []), row.fields.id ?? '']);
    }
    const joined = [...digests.values()].filter(
      (ids) => ids.includes(anonymous.evidenceId) && ids.includes(accountCopyId),
    );
    expect(joined, 'one SQL join on files.sha256').toEqual([]);
  });

  it('shows managers no digest of an anonymous case, a named case keeps its digests', async () => {
    const anonymousCase = (await manager.get(`/api/v1/manager/report/${anonymous.reportId}`)).json();
    expect(anonymousCase.files.length).toBeGreaterThan(0);
    for (const file of anonymousCase.files) expect(file.sha256).toBeNull();
    const formalCase = (await manager.get(`/api/v1/manager/report/${formal.reportId}`)).json();
    const download = await manager.get(`/api/v1/file/${formal.evidenceId}/`);
    const evidence = formalCase.files.find((file: { id: string }) => file.id === formal.evidenceId);
    expect(evidence.sha256).toBe(createHash('sha256').update(download.rawPayload).digest('hex'));
    // The investigation record keeps the digest of the delivered bytes, anonymous or not.
    const record = await manager.get(`/api/v1/manager/report/${anonymous.reportId}/record.pdf`);
    expect(record.statusCode).toBe(200);
    const delivered = await manager.get(`/api/v1/file/${anonymous.evidenceId}/`);
    const printed = createHash('sha256').update(delivered.rawPayload).digest('hex');
    expect(pdfText(record.rawPayload).replace(/\s/g, '')).toContain(printed);
  });

  it('deletes an account upload no report cites after 7 days, and keeps every cited file', async () => {
    const fileStore = ctx.app.deps.fileStore;
    const swept = await sweepOrphanFiles(
      ctx.database,
      fileStore,
      path.join(os.tmpdir(), 'ansim-no-parts'),
      Date.now() + UNCITED_UPLOAD_AGE_MS + 60_000,
    );
    expect(swept.uncitedUploads).toBeGreaterThanOrEqual(1);
    const left = await ctx.database.db.select({ id: files.id }).from(files);
    const ids = new Set(left.map((row) => row.id));
    expect(ids.has(accountCopyId)).toBe(false);
    expect(ids.has(anonymous.evidenceId)).toBe(true);
    expect(ids.has(formal.evidenceId)).toBe(true);
    expect((await manager.get(`/api/v1/file/${formal.evidenceId}/`)).statusCode).toBe(200);
  });
});

/** The account copy's bytes, as its owner downloads them. */
async function anonymousMemberDownload(): Promise<Buffer> {
  const response = await anonymousAccount.get(`/api/v1/file/${accountCopyId}/`);
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
}

describe('the employer reading notices through a work or account address', () => {
  async function submitWithContact(contact: string) {
    const member = await registerAndLogin(
      ctx,
      `contact-${Math.random().toString(36).slice(2)}@${COMPANY_DOMAIN}`,
    );
    const draft = await anonymousDraft(ctx, member);
    return draft.post('/api/v1/report/', { ...reportBody('anonym'), contact_email: contact });
  }

  it('refuses an address at a verified company domain and an account address alike, with one answer', async () => {
    await createCompany(ctx, '비 주식회사', 'b-corp.example');
    // Any company's domain, not only the reported company's, and its subdomains (the same mail servers).
    const atCompany = await submitWithContact('someone@b-corp.example');
    const atSubdomain = await submitWithContact('someone@mail.b-corp.example');
    // An account's address at a domain no company has.
    await registerAndLogin(ctx, 'has-account@elsewhere.example');
    const ofAccount = await submitWithContact('Has-Account@Elsewhere.example');
    for (const refused of [atCompany, atSubdomain, ofAccount]) {
      expect(refused.statusCode).toBe(422);
      expect(refused.json().code).toBe('CONTACT_EMAIL_NOT_PRIVATE');
    }
    // The same body: the answer never tells whether an address has an account here.
    expect(atCompany.body).toBe(ofAccount.body);
    expect(atCompany.json().message).toContain('개인 메일 주소');
    const accepted = await submitWithContact('nobody-here@personal.example');
    expect(accepted.statusCode).toBe(201);
  });
});

describe('the employer claiming a public mail domain', () => {
  it('refuses naver.com in a domain claim and shows the attempt in the operator audit', async () => {
    const admin = await createManager(ctx, `admin@${COMPANY_DOMAIN}`, { role: 'admin' });
    const claim = await admin.post('/api/v1/company/domains', {
      domain: 'naver.com',
      email: 'boss@naver.com',
    });
    expect(claim.statusCode).toBe(400);
    expect(claim.json().details.domain).toContain('공용 메일');
    expect(await latestMailTo('boss@naver.com')).toBe(0);
    const operator = await createOperatorClient(ctx, 'operator@platform.example');
    const audit = (await operator.get('/api/v1/operator/audit?action=company.domain')).json();
    expect(
      audit.results.some(
        (entry: { detail: { domain?: string; step?: string } | null }) =>
          entry.detail?.domain === 'naver.com' && entry.detail.step === 'refused',
      ),
    ).toBe(true);
    const created = await operator.post('/api/v1/operator/companies', {
      name: '지메일 회사',
      domains: ['gmail.com'],
      admin_email: 'admin@gmail-corp.example',
    });
    expect(created.statusCode).toBe(400);
  });

  it('refuses public mail domains in the admin CLI, and an address there never auto-joins', async () => {
    const companyId = await createCompany(ctx, '씨 주식회사', 'c-corp.example');
    for (const domain of ['hanmail.net', 'GMAIL.com', 'mail.naver.com', 'proton.me']) {
      await expect(addCompanyDomain(ctx.database, { companyId, domain })).rejects.toBeInstanceOf(
        AdminCommandError,
      );
    }
    await expect(
      createCompanyByCli(ctx.database, { name: '다음', domain: 'daum.net' }),
    ).rejects.toBeInstanceOf(AdminCommandError);
    // A row from before the list refused them: registration still joins nobody through it.
    await ctx.database.db.insert(companyDomains).values({ domain: 'nate.com', companyId });
    await registerAndLogin(ctx, 'newcomer@nate.com');
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'newcomer@nate.com'));
    expect(user?.companyId).toBeNull();
  });
});

describe('the accused person receiving a file that kept its metadata', () => {
  it("never gets an unremovable file, and managers see each file's metadata status", async () => {
    const member = await registerAndLogin(ctx, `named-${Date.now()}@${COMPANY_DOMAIN}`, {
      name: '실명신고인',
    });
    const kept = (await upload(member, '메모.txt', Buffer.from('회의 메모'))).json();
    const stuck = (await upload(member, '원본.txt', Buffer.from('작성자 정보가 남은 문서'))).json();
    await ctx.database.db.update(files).set({ metadataStatus: 'unremovable' }).where(eq(files.id, stuck.id));
    const filed = await member.post(
      '/api/v1/report/',
      reportBody('formal', {
        perpetrator_email: 'accused-meta@b-corp.example',
        acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [kept.id, stuck.id] }],
      }),
    );
    expect(filed.statusCode).toBe(201);
    const reportId = filed.json().id as string;
    const view = (await manager.get(`/api/v1/manager/report/${reportId}`)).json();
    const status = Object.fromEntries(
      view.files.map((file: { id: string; metadata: string }) => [file.id, file.metadata]),
    );
    expect(status).toEqual({ [kept.id]: 'none', [stuck.id]: 'unremovable' });
    const invited = await manager.post(`/api/v1/manager/report/${reportId}/invitations`, {
      invitations: [{ kind: 'defendant' }],
      share_evidence: true,
    });
    expect(invited.statusCode).toBe(201);
    const token = await invitationTokenFor(ctx, 'accused-meta@b-corp.example', 'defendant');
    const accused = inviteeClient(ctx, token);
    const page = (await accused.get(`/api/v1/invitation/${token}`)).json();
    const listed = page.acts.flatMap((act: { evidences: { id: string }[] }) =>
      act.evidences.map((e) => e.id),
    );
    expect(listed).toEqual([kept.id]);
    expect((await accused.get(`/api/v1/file/${kept.id}/`)).statusCode).toBe(200);
    expect((await accused.get(`/api/v1/file/${stuck.id}/`)).statusCode).toBe(404);
  });
});

/** Mails delivered to the address (queued mail is sealed, so the count is taken at the mail server). */
async function latestMailTo(address: string): Promise<number> {
  await deliverAll();
  return sink.messages.filter((message) => message.to.includes(address)).length;
}
