import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companies,
  files,
  intakeSessions,
  pendingReceipts,
  reportMessages,
  reports,
  users,
} from '../src/db/schema.ts';
import { unlinkAnonymousReports } from '../src/domain/reports/unlink-anonymous-reports.ts';
import { anonymousDraft, createCompany, createManager, reportBody, upload } from './fixtures.ts';
import {
  createTestApp,
  mailsTo,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
let member: TestClient;
let manager: TestClient;
let intakeCode: string;

beforeAll(async () => {
  ctx = await createTestApp({ config: { ANONYMOUS_NOTICE_DELAY_MAX_SECONDS: '600' } });
  const companyId = await createCompany(ctx, '에이 주식회사', 'a.example');
  await createCompany(ctx, '비 주식회사', 'b.example');
  member = await registerAndLogin(ctx, 'member@a.example', { name: '김직원' });
  manager = await createManager(ctx, 'manager@a.example');
  const [company] = await ctx.database.db.select().from(companies).where(eq(companies.id, companyId));
  intakeCode = company!.intakeCode;
});
afterAll(() => ctx.close());

async function reportRow(id: string) {
  const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, id));
  return row!;
}

/** A browser that holds nothing but the cookies named: a fresh device with a receipt, say. */
function freshBrowser(): TestClient {
  return new TestClient(ctx.app);
}

describe('an anonymous report by a logged-in member', () => {
  it('stores no account link, answers with a receipt, and opens the case with it', async () => {
    const draft = await anonymousDraft(ctx, member, { withAccountCookies: true });
    const evidence = (await upload(draft, '김직원_녹음.txt', Buffer.from('녹음 내용'))).json();
    const [file] = await ctx.database.db.select().from(files).where(eq(files.id, evidence.id));
    expect(file).toMatchObject({ ownerUserId: null, ownerIntakeId: expect.any(String) });

    const response = await draft.post(
      '/api/v1/report/',
      reportBody('anonym', {
        acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
      }),
    );
    expect(response.statusCode).toBe(201);
    const { id, receipt } = response.json();
    expect(receipt).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);

    const row = await reportRow(id);
    expect(row.reporterId).toBeNull();
    expect(row.receiptHash).toMatch(/^\$argon2id\$/);
    expect(row.receiptHash).not.toContain(receipt.replace(/ /g, ''));
    const [cited] = await ctx.database.db.select().from(files).where(eq(files.id, evidence.id));
    expect(cited).toMatchObject({ ownerUserId: null, ownerIntakeId: null, ownerReportId: id });

    // The account does not list it, and cannot open it.
    const own = (await member.get('/api/v1/report/')).json();
    expect(own.results.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await member.get(`/api/v1/report/${id}`)).statusCode).toBe(404);

    // The submitting browser holds a receipt session at once.
    expect((await draft.get(`/api/v1/report/${id}`)).statusCode).toBe(200);

    // On another device, the receipt alone opens it: spaces and all.
    const device = freshBrowser();
    const opened = await device.post('/api/v1/receipt/', {
      receipt: receipt,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ report_id: id, expires: expect.any(Number) });
    const detail = await device.get(`/api/v1/report/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ id, report_type: 'anonym', status: 'received' });
    expect(detail.json().files[0]).toMatchObject({ id: evidence.id, metadata: 'none' });
    expect((await device.get(`/api/v1/file/${evidence.id}/`)).statusCode).toBe(200);

    // Messages with the receipt carry no author id.
    const posted = await device.post(`/api/v1/report/${id}/messages`, { body: '추가 자료가 있습니다.' });
    expect(posted.statusCode).toBe(201);
    const messages = await ctx.database.db
      .select()
      .from(reportMessages)
      .where(eq(reportMessages.reportId, id));
    expect(messages.map((m) => m.authorId)).toEqual([null]);

    // A receipt opens its one report only; everything else answers as for a stranger.
    const other = (await member.post('/api/v1/report/', reportBody('brief'))).json();
    expect((await device.get(`/api/v1/report/${other.id}`)).statusCode).toBe(401);
    expect((await device.get('/api/v1/user/')).statusCode).toBe(401);
    expect((await device.get('/api/v1/report/')).statusCode).toBe(401);
    expect((await device.get('/api/v1/token/')).statusCode).toBe(401);
    expect((await device.get('/api/v1/manager/report/')).statusCode).toBe(401);
    expect((await device.get('/api/v1/receipt/')).json()).toMatchObject({ report_id: id });

    expect((await device.delete('/api/v1/receipt/')).statusCode).toBe(204);
    expect((await device.get(`/api/v1/report/${id}`)).statusCode).toBe(401);
  });

  it('refuses an anonymous submission through the account, and a named one through a draft', async () => {
    const throughAccount = await member.post('/api/v1/report/', reportBody('anonym'));
    expect(throughAccount.statusCode).toBe(400);
    expect(throughAccount.json().details.report_type).toBeDefined();
    const draft = await anonymousDraft(ctx, member);
    const namedThroughDraft = await draft.post('/api/v1/report/', reportBody('formal'));
    expect(namedThroughDraft.statusCode).toBe(400);
  });

  it('answers a retried submission with the same report and receipt, and files one report', async () => {
    const draft = await anonymousDraft(ctx, member);
    const first = (await draft.post('/api/v1/report/', reportBody('anonym'))).json();
    const again = await draft.post('/api/v1/report/', reportBody('anonym'));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first);
    const uploadAfter = await upload(draft, 'late.txt', Buffer.from('x'));
    expect(uploadAfter.statusCode).toBe(410);
    expect(uploadAfter.json().code).toBe('INTAKE_EXPIRED');
  });

  it('answers a wrong receipt with the same 400 as a wrong password, throttled the same way', async () => {
    const device = freshBrowser();
    const wrongReceipt = await device.post('/api/v1/receipt/', {
      receipt: '0000 0000 0000 0000',
      captcha: await solveCaptcha(ctx.app),
    });
    const wrongPassword = await device.post('/api/v1/token/', {
      email: 'member@a.example',
      password: `${STRONG_PASSWORD}x`,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(wrongReceipt.statusCode).toBe(400);
    expect(wrongReceipt.json()).toEqual(wrongPassword.json());
    expect((await device.post('/api/v1/receipt/', { receipt: '1234' })).json().code).toBe('CAPTCHA_FAILED');

    const throttled = freshBrowser();
    const statuses: number[] = [];
    for (let i = 0; i < ctx.config.RECEIPT_LIMIT_PER_IP_PER_HOUR + 1; i++)
      statuses.push((await throttled.post('/api/v1/receipt/', { receipt: '1' })).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });

  it('lets a company user start a draft only for their own company', async () => {
    const stranger = freshBrowser();
    expect((await stranger.post('/api/v1/intake/', {})).statusCode).toBe(401);
    const noCompany = await registerAndLogin(ctx, 'someone@nowhere.example');
    const refused = await noCompany.post('/api/v1/intake/', {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('NO_COMPANY');
    const draft = await anonymousDraft(ctx, member);
    const token = draft.headers['X-Intake-Token']!;
    const [session] = await ctx.database.db.select().from(intakeSessions);
    expect(Object.keys(session!).sort()).toEqual(
      ['companyId', 'createdAt', 'expiresAt', 'id', 'submission', 'submittedAt', 'tokenHash'].sort(),
    );
    expect(JSON.stringify(await ctx.database.db.select().from(intakeSessions))).not.toContain(token);
  });
});

describe('the public intake link', () => {
  it('lets someone without an account file an anonymous report with evidence', async () => {
    const visitor = freshBrowser();
    const page = await visitor.get(`/api/v1/intake/${intakeCode}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({ company: { name: '에이 주식회사' }, help_text: '', notice_contact: '' });
    expect((await visitor.get('/api/v1/intake/unknowncode1')).statusCode).toBe(404);

    const withoutCaptcha = await visitor.post('/api/v1/intake/', { code: intakeCode });
    expect(withoutCaptcha.json().code).toBe('CAPTCHA_FAILED');
    const started = await visitor.post('/api/v1/intake/', {
      code: intakeCode,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(started.statusCode).toBe(201);
    expect(started.json().company).toEqual({ name: '에이 주식회사' });
    const draft = new TestClient(ctx.app, visitor.ip, { 'X-Intake-Token': started.json().token });
    const evidence = (await upload(draft, 'capture.txt', Buffer.from('캡처'))).json();
    expect((await draft.get('/api/v1/file/')).json().map((f: { id: string }) => f.id)).toEqual([evidence.id]);
    const submitted = await draft.post(
      '/api/v1/report/',
      reportBody('anonym', {
        acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
      }),
    );
    expect(submitted.statusCode).toBe(201);
    const list = (await manager.get('/api/v1/manager/report/')).json();
    expect(list.results.map((r: { id: string }) => r.id)).toContain(submitted.json().id);
    const managerFile = await manager.get(`/api/v1/file/${evidence.id}/`);
    expect(managerFile.statusCode).toBe(200);
    expect(managerFile.headers['content-disposition']).toContain(
      '%EC%A6%9D%EA%B1%B0%EC%9E%90%EB%A3%8C-1.txt',
    );
  });

  it('refuses an expired draft token with 410 INTAKE_EXPIRED', async () => {
    const draft = await anonymousDraft(ctx, member);
    await ctx.database.db.update(intakeSessions).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await draft.post('/api/v1/report/', reportBody('anonym'));
    expect(response.statusCode).toBe(410);
    expect(response.json().code).toBe('INTAKE_EXPIRED');
  });
});

describe('evidence rules', () => {
  it('lets a file be cited by one report only', async () => {
    const evidence = (await upload(member, '캡처.txt', Buffer.from('캡처'))).json();
    const cite = {
      acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
    };
    expect((await member.post('/api/v1/report/', reportBody('brief', cite))).statusCode).toBe(201);
    const second = await member.post('/api/v1/report/', reportBody('formal', cite));
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('FILE_IN_USE');
  });

  it('refuses to cite a file whose metadata could not be removed in an anonymous report only', async () => {
    const draft = await anonymousDraft(ctx, member);
    const evidence = (await upload(draft, 'note.txt', Buffer.from('문서'))).json();
    await ctx.database.db
      .update(files)
      .set({ metadataStatus: 'unremovable' })
      .where(eq(files.id, evidence.id));
    const cite = {
      acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
    };
    const refused = await draft.post('/api/v1/report/', reportBody('anonym', cite));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('FILE_METADATA_UNREMOVABLE');
    expect(refused.json().message).toContain('익명 신고');

    const named = (await upload(member, 'note.txt', Buffer.from('문서'))).json();
    await ctx.database.db.update(files).set({ metadataStatus: 'unremovable' }).where(eq(files.id, named.id));
    const namedCite = {
      acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [named.id] }],
    };
    expect((await member.post('/api/v1/report/', reportBody('formal', namedCite))).statusCode).toBe(201);
  });
});

describe('generic file names', () => {
  it('number the files in the order the report cites them, as the reporter saw before submitting', async () => {
    const draft = await anonymousDraft(ctx, member);
    const uploadedFirst = (await upload(draft, 'first.txt', Buffer.from('먼저 올린 파일'))).json();
    const secondId = (await upload(draft, 'second.txt', Buffer.from('나중에 올린 파일'))).json().id;
    const { id } = (
      await draft.post(
        '/api/v1/report/',
        reportBody('anonym', {
          acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [secondId] }],
          harms: [{ type: 'mental', description: '불면', evidences: [uploadedFirst.id] }],
        }),
      )
    ).json();
    const detail = (await manager.get(`/api/v1/manager/report/${id}`)).json();
    expect(
      detail.files.map((file: { id: string; name: string }) => [file.id, file.name.split('.')[0]]),
    ).toEqual([
      [secondId, '증거자료-1'],
      [uploadedFirst.id, '증거자료-2'],
    ]);
  });
});

describe('notices about an anonymous case', () => {
  it('sends nothing to the account address and a content-free, delayed notice to the private address', async () => {
    const draft = await anonymousDraft(ctx, member, { withAccountCookies: true });
    const { id } = (
      await draft.post('/api/v1/report/', {
        ...reportBody('anonym'),
        contact_email: 'Private.Me@Mail.example',
      })
    ).json();
    const row = await reportRow(id);
    expect(row.contactEmail).toMatch(/^enc2:/);
    const before = Date.now();
    await manager.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: { status: 'investigating', note_for_reporter: '조사를 시작합니다.' },
    });
    await manager.post(`/api/v1/manager/report/${id}/messages`, { body: '추가 자료를 보내주실 수 있나요?' });

    const toMember = await mailsTo(ctx.database, 'member@a.example');
    expect(toMember.filter((mail) => mail.template !== 'confirm_email')).toEqual([]);

    const notices = await mailsTo(ctx.database, 'private.me@mail.example');
    expect(notices).toHaveLength(2);
    for (const notice of notices) {
      expect(notice.template).toBe('anonymous_notice');
      const text = `${notice.subject}\n${notice.text}\n${notice.html}`;
      expect(text).not.toContain(row.caseNumber);
      expect(text).not.toContain(id);
      expect(text).not.toContain('에이 주식회사');
      const links = [...text.matchAll(/https?:\/\/[^\s"<]+/g)].map((match) => match[0]);
      expect(new Set(links)).toEqual(new Set([`${ctx.config.PUBLIC_URL}/receipt`]));
      const delay = notice.nextAttemptAt.getTime() - before;
      expect(delay).toBeGreaterThanOrEqual(-1000);
      expect(delay).toBeLessThanOrEqual(600_000 + 60_000);
    }

    await manager.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${id}`,
      json: { status: 'dismissed', note_for_reporter: '불성립으로 종결합니다.' },
    });
    expect((await reportRow(id)).contactEmail).toBeNull();
  });

  it('refuses a private contact address on a named report', async () => {
    const response = await member.post('/api/v1/report/', {
      ...reportBody('brief'),
      contact_email: 'me@mail.example',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.contact_email).toBeDefined();
  });
});

describe('anonymous reports filed before they became unlinkable', () => {
  it('lose their account links and leave the reporter one receipt, shown until dismissed', async () => {
    const reporter = await registerAndLogin(ctx, 'early@a.example');
    const draft = await anonymousDraft(ctx, reporter);
    const evidence = (await upload(draft, 'a.txt', Buffer.from('a'))).json();
    const { id } = (
      await draft.post(
        '/api/v1/report/',
        reportBody('anonym', {
          acts: [{ date: '2026-10-01', location: '본사', description: '폭언', evidences: [evidence.id] }],
        }),
      )
    ).json();
    await draft.post(`/api/v1/report/${id}/messages`, { body: '메시지' });
    // How such a report looked before: linked to its reporter everywhere.
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'early@a.example'));
    await ctx.database.db
      .update(reports)
      .set({ reporterId: user!.id, receiptHash: null })
      .where(eq(reports.id, id));
    await ctx.database.db
      .update(reportMessages)
      .set({ authorId: user!.id })
      .where(eq(reportMessages.reportId, id));
    await ctx.database.db
      .update(files)
      .set({ ownerUserId: user!.id, ownerReportId: null })
      .where(eq(files.id, evidence.id));

    expect(await unlinkAnonymousReports(ctx.database)).toBe(1);
    expect(await unlinkAnonymousReports(ctx.database)).toBe(0);
    const row = await reportRow(id);
    expect(row.reporterId).toBeNull();
    expect(row.receiptHash).toBeTruthy();
    const [message] = await ctx.database.db
      .select()
      .from(reportMessages)
      .where(eq(reportMessages.reportId, id));
    expect(message!.authorId).toBeNull();
    const [file] = await ctx.database.db.select().from(files).where(eq(files.id, evidence.id));
    expect(file).toMatchObject({ ownerUserId: null, ownerReportId: id });
    const [pending] = await ctx.database.db.select().from(pendingReceipts);
    expect(pending!.payload).toMatch(/^enc2:/);
    expect(pending!.payload).not.toContain(id);

    const shown = await reporter.get('/api/v1/user/pending-receipts');
    expect(shown.statusCode).toBe(200);
    const [entry] = shown.json();
    expect(entry).toMatchObject({ case_number: row.caseNumber, receipt: expect.stringMatching(/^\d{4} /) });
    expect((await member.get('/api/v1/user/pending-receipts')).json()).toEqual([]);

    const device = freshBrowser();
    const opened = await device.post('/api/v1/receipt/', {
      receipt: entry.receipt,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(opened.json().report_id).toBe(id);

    expect((await reporter.delete('/api/v1/user/pending-receipts')).statusCode).toBe(204);
    expect((await reporter.get('/api/v1/user/pending-receipts')).json()).toEqual([]);
    expect(await ctx.database.db.select().from(pendingReceipts)).toEqual([]);
  });
});

describe('the receipt cookie under https', () => {
  it('carries the __Host- prefix, like the session cookie', async () => {
    const secure = await createTestApp({ config: { PUBLIC_URL: 'https://ansim.example' } });
    try {
      await createCompany(secure, '에이 주식회사', 'a.example');
      const reporter = await registerAndLogin(secure, 'https-member@a.example');
      const draft = await anonymousDraft(secure, reporter);
      const response = await draft.post('/api/v1/report/', reportBody('anonym'));
      expect(response.statusCode).toBe(201);
      const cookie = response.cookies.find((c) => c.name.endsWith('receiptid'));
      expect(cookie).toMatchObject({ name: '__Host-receiptid', secure: true, httpOnly: true, path: '/' });
      expect((await draft.get(`/api/v1/report/${response.json().id}`)).statusCode).toBe(200);
    } finally {
      await secure.close();
    }
  });
});
