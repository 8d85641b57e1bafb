import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
  request,
} from '@playwright/test';
import {
  csrfHeaders,
  ensureManagerTotp,
  expect,
  loginThroughApi,
  pageAtRest,
  SCREENSHOTS,
  test,
} from '../fixtures';
import { linkIn, type ReceivedMail, type SmtpMailbox, startSmtpMailbox } from '../smtp-mailbox';
import { demoPassword, type SpawnedApi, startApi, stopApi } from '../spawned-api';

/**
 * R-INV end to end: a real SMTP server started here receives every mail of a second API server started for
 * this spec (its own data directory, so the demo accounts it prints are fresh and mails go over SMTP, not to
 * .eml files). A reporter files a formal report, the manager invites the accused person and two witnesses,
 * and the invitees answer through the links in the mails they received — in Chromium, without accounts.
 */

const suffix = randomBytes(3).toString('hex');
const REPORTER = {
  email: `reporter-${suffix}@demo.example`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
  name: `한보고${suffix}`,
};
const ACCUSED_EMAIL = `accused-${suffix}@demo.example`;
const WITNESS_EMAILS = [`witness1-${suffix}@example.org`, `witness2-${suffix}@example.org`];
const COMPANY = '데모 주식회사';
const ACT_DESCRIPTION = '주간 회의 중 여러 사람 앞에서 보고서를 던지며 큰 소리로 모욕';

let smtp: SmtpMailbox;
let api: SpawnedApi;
let reportId: string;
let caseNumber: string;
let managerApi: APIRequestContext;
const links = { defendant: '', references: [] as string[] };

const isInvitation = (mail: ReceivedMail) =>
  mail.text.includes('?token=') && mail.subject.includes('진술 요청');

const VIEWPORTS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '375', width: 375, height: 812 },
];

/** axe with no violations and a full-page screenshot at both widths, for one state of an invitee page. */
async function checkScreen(page: Page, name: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expect(page.locator('h1')).toHaveCount(1);
    await page.evaluate(() => document.fonts.load('700 16px "Pretendard Variable"', '안심신고'));
    await pageAtRest(page);
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
    expect(summary, `${name} at ${viewport.label}px`).toEqual([]);
    // Nothing may stick out sideways at phone width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows at ${viewport.label}px`).toBeLessThanOrEqual(0);
    // A full-page capture of a scrolled page would paint the sticky header midway down.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: join(SCREENSHOTS, `invitation-${name}-${viewport.label}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function inviteeContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: api.baseURL, viewport: { width: 1280, height: 900 } });
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  smtp = await startSmtpMailbox();
  api = await startApi({
    dataDirPrefix: 'ansim-e2e-invitation-',
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
  });

  // The reporter registers with a company address and confirms it through the mail the SMTP server got.
  const reporter = await request.newContext({ baseURL: api.baseURL });
  const created = await reporter.post('/api/v1/user/', {
    headers: await csrfHeaders(reporter),
    data: REPORTER,
  });
  expect(created.status(), await created.text()).toBe(201);
  const confirmMail = await smtp.waitFor(REPORTER.email, (mail) =>
    mail.text.includes('/register/confirm?token='),
  );
  const confirmToken = new URL(linkIn(confirmMail, '/register/confirm')).searchParams.get('token')!;
  const confirmed = await reporter.post('/api/v1/user/email/confirm-email', {
    headers: await csrfHeaders(reporter),
    data: { token: confirmToken },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  await loginThroughApi(reporter, api.baseURL, REPORTER);

  const evidence = await reporter.post('/api/v1/file/', {
    headers: await csrfHeaders(reporter),
    multipart: {
      file: {
        name: `${REPORTER.name}_메신저.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from('메신저 대화 캡처'),
      },
    },
  });
  expect(evidence.status(), await evidence.text()).toBe(201);
  const evidenceId = ((await evidence.json()) as { id: string }).id;

  const filed = await reporter.post('/api/v1/report/', {
    headers: await csrfHeaders(reporter),
    data: {
      report_type: 'formal',
      reporter_type: 'victim',
      reporter_name: REPORTER.name,
      reporter_role: '대리',
      reporter_department: '마케팅팀',
      perpetrator_name: '박행위',
      perpetrator_role: '팀장',
      perpetrator_department: '마케팅팀',
      perpetrator_email: ACCUSED_EMAIL,
      relationship: '상급자',
      acts: [
        {
          date: '2026-09-14',
          location: '본사 5층 회의실',
          description: ACT_DESCRIPTION,
          evidences: [evidenceId],
        },
      ],
      harms: [{ type: 'mental', description: '불면과 불안', evidences: [] }],
      wishes: ['investigation'],
      protection_requests: ['separation'],
      witnesses: [
        {
          name: '이목격',
          department: '마케팅팀',
          position: '사원',
          email: WITNESS_EMAILS[0],
          email_sent_at: null,
        },
        {
          name: '최참고',
          department: '영업팀',
          position: '과장',
          email: WITNESS_EMAILS[1],
          email_sent_at: null,
        },
      ],
    },
  });
  expect(filed.status(), await filed.text()).toBe(201);
  reportId = ((await filed.json()) as { id: string }).id;
  await reporter.dispose();

  managerApi = await request.newContext({ baseURL: api.baseURL });
  // Managers must have a second factor (R-ACC-7): the demo manager enrols TOTP, then logs in with a code.
  await ensureManagerTotp(managerApi, api.baseURL, {
    email: 'manager@demo.example',
    password: demoPassword(api.output, 'manager@demo.example'),
    name: '김담당',
  });
  const invited = await managerApi.post(`/api/v1/manager/report/${reportId}/invitations`, {
    headers: await csrfHeaders(managerApi),
    data: {
      invitations: [
        { kind: 'defendant' },
        { kind: 'reference', witness_index: 0 },
        { kind: 'reference', witness_index: 1 },
      ],
      share_evidence: true,
    },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  caseNumber = (
    (await (await managerApi.get(`/api/v1/manager/report/${reportId}`)).json()) as {
      case_number: string;
    }
  ).case_number;
});

test.afterAll(async () => {
  await managerApi?.dispose();
  if (api) await stopApi(api);
  await smtp?.close();
});

test('the three invitation mails arrive over SMTP, name the company and case, and never the reporter', async () => {
  const accusedMail = await smtp.waitFor(ACCUSED_EMAIL, isInvitation);
  const witnessMails = await Promise.all(WITNESS_EMAILS.map((email) => smtp.waitFor(email, isInvitation)));
  for (const mail of [accusedMail, ...witnessMails]) {
    expect(mail.subject).toContain(COMPANY);
    expect(mail.subject).toContain(caseNumber);
    expect(mail.text).toContain(caseNumber);
    expect(mail.text).toContain('제76조의3 제7항');
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toContain(REPORTER.name);
      expect(part).not.toContain(REPORTER.email);
      expect(part).not.toContain('마케팅팀 대리');
    }
  }
  links.defendant = linkIn(accusedMail, '/defendant');
  links.references = witnessMails.map((mail) => linkIn(mail, '/reference'));
  expect(links.defendant.startsWith(`${api.baseURL}/defendant?token=`)).toBe(true);
});

test('the accused person acknowledges, answers in 3 steps with an evidence upload, and gets a receipt', async ({
  browser,
}) => {
  // The manager's case page stays open the whole time: the statements must appear on it without a reload.
  const managerContext = await browser.newContext({ baseURL: api.baseURL });
  const expires = ((await (await managerApi.get('/api/v1/token/')).json()) as { expires: number }).expires;
  await managerContext.addCookies((await managerApi.storageState()).cookies);
  await managerContext.addInitScript((value) => {
    // The first document of a new page is about:blank, which has no storage.
    if (location.protocol.startsWith('http')) localStorage.setItem('loginExpires', String(value));
  }, expires);
  const managerPage = await managerContext.newPage();
  await managerPage.goto(`/manager/detail/${reportId}`);
  await expect(managerPage.getByRole('heading', { level: 1 })).toContainText(caseNumber);

  const context = await inviteeContext(browser);
  const page = await context.newPage();
  const token = new URL(links.defendant).searchParams.get('token')!;
  await page.goto(links.defendant);

  // The token leaves the address bar at once and is kept for this tab only.
  await expect(page).toHaveURL(`${api.baseURL}/defendant`);
  expect(await page.evaluate(() => sessionStorage.getItem('ansim.invitationToken.defendant'))).toBe(token);
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(token);

  await expect(page.getByRole('heading', { level: 1, name: '피신고인 진술 요청' })).toBeVisible();
  await expect(page.getByText(COMPANY, { exact: true })).toBeVisible();
  await expect(page.getByText(caseNumber, { exact: true })).toBeVisible();
  await expect(page.getByText(ACT_DESCRIPTION)).toBeVisible();
  await expect(page.getByText('본사 5층 회의실')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(REPORTER.name);
  // Shared evidence downloads with the token in a header, under a generic name.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /증거자료-1 내려받기/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('증거자료-1.txt');
  await checkScreen(page, 'defendant-intro');

  // The acknowledgement comes first; without the tick the page says what is missing.
  await page.getByRole('button', { name: '확인하고 진술서 작성하기' }).click();
  await expect(page.getByRole('alert')).toContainText('비밀유지 의무 확인란');
  await page.getByRole('checkbox', { name: /비밀유지 의무를 확인했으며/ }).check();
  await page.getByRole('button', { name: '확인하고 진술서 작성하기' }).click();
  await expect(page).toHaveURL(`${api.baseURL}/defendant/a?step=1`);

  // Step 1: their own details; the name the manager used is filled in.
  await expect(page.getByRole('heading', { level: 2, name: '인적 사항' })).toBeVisible();
  await expect(page.getByLabel('성명')).toHaveValue('박행위');
  await page.getByLabel('직위').fill('팀장');
  await page.getByLabel('부서').fill('마케팅팀');
  await page.getByLabel('근속기간').fill('7년');
  await checkScreen(page, 'defendant-step1');
  await page.getByTestId('statement-next').click();

  // Step 2: validation first, then the answer with an evidence upload whose progress is shown.
  await expect(page.getByRole('heading', { level: 2, name: '신고 내용에 대한 진술' })).toBeVisible();
  await page.getByTestId('statement-next').click();
  await expect(page.getByRole('alert')).toContainText('확인이 필요한 항목이 2개');
  await page.getByRole('radio', { name: '일부 인정' }).check();
  await page.getByLabel('사실이라고 인정하는 부분').fill('회의 중 언성을 높인 것은 사실입니다.');
  await page.getByLabel('사실과 다르다고 생각하는 부분').fill('보고서를 던지거나 모욕한 적은 없습니다.');
  await page.getByLabel(/^의견/).fill('업무 지적 과정에서 오해가 생긴 것으로 생각합니다.');
  // The upload is held back briefly so its progress bar is observable, then let through to the real server.
  let releaseUpload: () => void = () => {};
  const uploadHeld = new Promise<void>((resolve) => {
    releaseUpload = resolve;
  });
  await page.route('**/api/v1/file/', async (route) => {
    if (route.request().method() === 'POST') await uploadHeld;
    await route.continue();
  });
  await page.getByTestId('invitee-evidence-input-defendant_evidences').setInputFiles({
    name: '업무지시_메일.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('9월 14일 회의 자료 요청 메일 사본'.repeat(200)),
  });
  await expect(page.getByTestId('invitee-evidence-progress')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: /업무지시_메일.txt/ })).toBeVisible();
  releaseUpload();
  await expect(page.getByTestId('invitee-evidence-item')).toContainText('업무지시_메일.txt');
  await expect(page.getByTestId('invitee-evidence-item')).toContainText('올림 완료');
  await page.unroute('**/api/v1/file/');
  await checkScreen(page, 'defendant-step2');
  await page.getByTestId('statement-next').click();

  // Step 3: a witness of their own and other matters; the draft survives a reload.
  await expect(page.getByRole('heading', { level: 2, name: '참고인 및 기타 사항' })).toBeVisible();
  await page.getByRole('button', { name: '참고인 추가' }).click();
  await page.getByLabel('이름').fill('정동료');
  await page.getByLabel('부서').fill('마케팅팀');
  await page.getByLabel('직위').fill('대리');
  await page.getByLabel('이메일').fill('colleague@demo.example');
  await page.getByLabel('그 밖에 알리고 싶은 내용').fill('회의록을 확인해 주시기 바랍니다.');
  await page.reload();
  await expect(page.getByLabel('이름')).toHaveValue('정동료');
  expect(
    await page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('ansim.reportDraft.')),
    ),
  ).toEqual([]);
  await checkScreen(page, 'defendant-step3');
  await page.getByTestId('statement-next').click();

  // Review, then submit.
  await expect(page.getByRole('heading', { level: 2, name: '제출 전 확인' })).toBeVisible();
  await expect(page.getByText('보고서를 던지거나 모욕한 적은 없습니다.')).toBeVisible();
  await expect(page.getByText('업무지시_메일.txt')).toBeVisible();
  await checkScreen(page, 'defendant-review');
  await page.getByTestId('statement-submit').click();

  await expect(page.getByRole('heading', { level: 1, name: '진술서가 제출되었습니다' })).toBeVisible();
  const receipt = (await page.getByTestId('receipt-hash').textContent())!.trim();
  expect(receipt).toMatch(/^[0-9a-f]{64}$/);
  await expect(page.getByTestId('receipt-time')).not.toBeEmpty();
  await checkScreen(page, 'defendant-receipt');
  // Nothing of the statement or the link stays on the device.
  expect(
    await page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('ansim.invitationDraft.')),
    ),
  ).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('ansim.invitationToken.defendant'))).toBeNull();

  // The same link again: the page says a statement was already given.
  await page.goto(links.defendant);
  await expect(page.getByRole('heading', { level: 1, name: '진술서가 이미 제출되었습니다' })).toBeVisible();
  await checkScreen(page, 'defendant-responded');
  await context.close();

  // A witness answers the one reference step.
  const witnessContext = await inviteeContext(browser);
  const witness = await witnessContext.newPage();
  await witness.goto(links.references[0]!);
  await expect(witness).toHaveURL(`${api.baseURL}/reference`);
  await expect(witness.getByRole('heading', { level: 1, name: '참고인 진술 요청' })).toBeVisible();
  // A witness is told when and where, not what the report alleges.
  await expect(witness.getByText('2026-09-14 · 본사 5층 회의실')).toBeVisible();
  await expect(witness.locator('body')).not.toContainText(ACT_DESCRIPTION);
  await checkScreen(witness, 'reference-intro');
  await witness.getByRole('checkbox', { name: /비밀유지 의무를 확인했으며/ }).check();
  await witness.getByRole('button', { name: '확인하고 진술서 작성하기' }).click();
  await expect(witness.getByRole('heading', { level: 2, name: '참고인 조사' })).toBeVisible();
  await witness
    .getByLabel(/직접 보거나 들은 내용/)
    .fill('회의 중 팀장님이 큰 소리로 말하는 것을 들었습니다.');
  await witness.getByLabel('그 밖에 기억나는 사실').fill('오후 3시쯤이었고 다섯 명이 함께 있었습니다.');
  await checkScreen(witness, 'reference-step');
  await witness.getByTestId('statement-next').click();
  await checkScreen(witness, 'reference-review');
  await witness.getByTestId('statement-submit').click();
  await expect(witness.getByTestId('receipt-hash')).toHaveText(/^[0-9a-f]{64}$/);
  await checkScreen(witness, 'reference-receipt');
  await witnessContext.close();

  // Both statements are with the case, with the receipts the invitees saw.
  const view = (await (await managerApi.get(`/api/v1/manager/report/${reportId}`)).json()) as {
    statements: { kind: string; sha256: string; form: Record<string, unknown> }[];
  };
  expect(view.statements.map((statement) => statement.kind).sort()).toEqual(['defendant', 'reference']);
  const defendantStatement = view.statements.find((statement) => statement.kind === 'defendant')!;
  expect(defendantStatement.sha256).toBe(receipt);
  expect(defendantStatement.form).toMatchObject({
    report_type: 'defendant',
    reporter_name: '박행위',
    reporter_tenure: '7년',
    defendant_truth: 'partly_admit',
    defendant_extra_info: '회의록을 확인해 주시기 바랍니다.',
  });
  expect((defendantStatement.form.defendant_evidences as string[]).length).toBe(1);
  expect(defendantStatement.form.defendant_witnesses).toEqual([
    {
      name: '정동료',
      department: '마케팅팀',
      position: '대리',
      email: 'colleague@demo.example',
      email_sent_at: null,
    },
  ]);

  // …and on the manager's page that stayed open, through the case's live events.
  await expect(managerPage.getByTestId('statement')).toHaveCount(2, { timeout: 20_000 });
  await expect(managerPage.getByText('보고서를 던지거나 모욕한 적은 없습니다.')).toBeVisible();
  await managerContext.close();
});

test('a revoked link shows the invalid-link page, and an unknown one too', async ({ browser }) => {
  const view = (await (await managerApi.get(`/api/v1/manager/report/${reportId}`)).json()) as {
    invitations: { id: string; email: string }[];
  };
  const second = view.invitations.find((invitation) => invitation.email === WITNESS_EMAILS[1])!;
  const revoked = await managerApi.post(
    `/api/v1/manager/report/${reportId}/invitations/${second.id}/revoke`,
    {
      headers: await csrfHeaders(managerApi),
    },
  );
  expect(revoked.status(), await revoked.text()).toBe(200);

  const context = await inviteeContext(browser);
  const page = await context.newPage();
  await page.goto(links.references[1]!);
  await expect(page).toHaveURL(`${api.baseURL}/reference`);
  await expect(page.getByRole('heading', { level: 1, name: '유효하지 않은 링크입니다' })).toBeVisible();
  await expect(page.getByTestId('invitation-problem-invalid')).toContainText('담당자');
  await checkScreen(page, 'invalid');

  await page.goto('/defendant?token=not-a-real-token');
  await expect(page.getByRole('heading', { level: 1, name: '유효하지 않은 링크입니다' })).toBeVisible();

  // Opened without any link (e.g. typed in): the page explains where the link comes from.
  const fresh = await context.newPage();
  await fresh.goto('/reference/a');
  await expect(fresh.getByRole('heading', { level: 1, name: '진술 요청 링크가 필요합니다' })).toBeVisible();
  await checkScreen(fresh, 'missing');
  await context.close();
});

test('an expired link shows its own page', async ({ browser }) => {
  const context = await inviteeContext(browser);
  const page = await context.newPage();
  // The expiry itself is enforced and tested at the API (apps/api/test/invitations.test.ts moves expires_at
  // into the past); a browser test cannot travel 14 days. Here only the page for the API's 410 answer is
  // checked, so that one response is stubbed.
  await page.route('**/api/v1/invitation/*', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          status: 410,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'INVITATION_EXPIRED',
            message: '요청 링크의 유효 기간이 지났습니다. 담당자에게 새 링크를 요청해주세요.',
          }),
        })
      : route.continue(),
  );
  await page.goto(links.references[0]!.replace(/token=[^&]+/, 'token=some-expired-token'));
  await expect(page).toHaveURL(`${api.baseURL}/reference`);
  await expect(page.getByRole('heading', { level: 1, name: '링크의 사용 기간이 지났습니다' })).toBeVisible();
  await expect(page.getByTestId('invitation-problem-expired')).toContainText('새 링크');
  await checkScreen(page, 'expired');
  await context.close();
});
