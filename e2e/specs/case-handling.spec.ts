import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  Page,
  PlaywrightWorkerArgs,
} from '@playwright/test';
import {
  createCompanyMember,
  createConfirmedUser,
  csrfHeaders,
  demoAdmin,
  demoManager,
  ensureManagerTotp,
  expect,
  loginThroughUi,
  SCREENSHOTS,
  server,
  type TestUser,
  test,
} from '../fixtures';

/**
 * R-CASE-6 to R-CASE-12 as one case: follow-up evidence, the manager assigning an investigator who sees only that case, the
 * reporter's say on a measure (근로기준법 제76조의3 ③④), the reason for carrying it out despite an objection,
 * and the recorded outcome the reporter then sees.
 */

const suffix = randomBytes(3).toString('hex');
const reporterUser: TestUser = {
  email: `e2e-case-${suffix}@demo.example`,
  password: `Pw-${randomBytes(9).toString('base64url')}`,
  name: `한신고${suffix}`,
};
const RECORDING = `회의-녹음-${suffix}.wav`;
const OBJECTION = '지금 부서를 옮기면 오히려 신고한 사실이 드러날까 걱정됩니다.';
const GRANT_REASON = '행위자와 같은 층에서 근무해 분리가 불가피하며, 신고인과 다시 협의하겠습니다.';

/** One second of 8 kHz mono 16-bit PCM silence: a real, playable WAV recording. */
function recording(): Buffer {
  const samples = Buffer.alloc(16_000);
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0);
  format.writeUInt16LE(1, 2);
  format.writeUInt32LE(8000, 4);
  format.writeUInt32LE(16_000, 8);
  format.writeUInt16LE(2, 12);
  format.writeUInt16LE(16, 14);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32LE(data.length, 4);
    return Buffer.concat([head, data]);
  };
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), chunk('fmt ', format), chunk('data', samples)]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** A browser of its own for one person, logged in through the form; `landing` is where the login takes them. */
async function loggedIn(
  browser: Browser,
  user: TestUser,
  landing: RegExp,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(landing);
  return { context, page };
}

/**
 * A member of the demo company made `investigator` by the demo admin through the people API of the settings
 * page, then given the second factor every handler needs. Their name is unique, to be picked on the case page.
 */
async function createInvestigator(playwright: PlaywrightWorkerArgs['playwright']): Promise<TestUser> {
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  const user = await createCompanyMember(request, { name: `정조사${suffix}` });
  const admin = await playwright.request.newContext({ baseURL: server.baseURL });
  await ensureManagerTotp(admin, server.baseURL, demoAdmin());
  const people = (await (await admin.get('/api/v1/company/people')).json()) as {
    results: { id: string; email: string }[];
  };
  const person = people.results.find((row) => row.email === user.email);
  expect(person, `${user.email} is not among the company's people`).toBeTruthy();
  const changed = await admin.patch(`/api/v1/company/people/${person!.id}`, {
    headers: await csrfHeaders(admin),
    data: { role: 'investigator' },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  expect(((await changed.json()) as { role: string }).role).toBe('investigator');
  await admin.dispose();
  await ensureManagerTotp(request, server.baseURL, user);
  await request.dispose();
  return user;
}

async function fileReport(request: APIRequestContext): Promise<string> {
  const headers = { ...(await csrfHeaders(request)), 'Idempotency-Key': randomUUID() };
  const response = await request.post('/api/v1/report/', {
    headers,
    data: {
      report_type: 'formal',
      reporter_type: 'victim',
      reporter_name: reporterUser.name,
      reporter_department: '영업팀',
      perpetrator_name: `박행위${suffix}`,
      perpetrator_email: `accused-${suffix}@demo.example`,
      relationship: '상급자',
      acts: [
        { date: '2026-03-02', location: '3층 회의실', description: '회의 중 반복적인 폭언', evidences: [] },
      ],
      harms: [{ type: 'mental', description: '불면과 불안', evidences: [] }],
      wishes: ['investigation'],
      protection_requests: [],
      witnesses: [],
      extra_info: '',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

let reporter: { context: BrowserContext; page: Page };
let manager: { context: BrowserContext; page: Page };
let investigator: { context: BrowserContext; page: Page };
let investigatorUser: TestUser;
let caseId: string;
/** A second case of the same reporter that nobody assigns: the investigator must never see it. */
let unassignedId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, playwright }) => {
  // Three accounts, two of them handlers with a second factor, and three logins: longer than one test.
  test.setTimeout(240_000);
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  await createConfirmedUser(request, reporterUser);
  await request.dispose();
  reporter = await loggedIn(browser, reporterUser, /\/dashboard$/);
  caseId = await fileReport(reporter.context.request);
  unassignedId = await fileReport(reporter.context.request);
  const managerRequest = await playwright.request.newContext({ baseURL: server.baseURL });
  await ensureManagerTotp(managerRequest, server.baseURL, demoManager());
  await managerRequest.dispose();
  manager = await loggedIn(browser, demoManager(), /\/manager$/);
  investigatorUser = await createInvestigator(playwright);
  investigator = await loggedIn(browser, investigatorUser, /\/manager$/);
});

test.afterAll(async () => {
  await reporter?.context.close();
  await manager?.context.close();
  await investigator?.context.close();
});

/** What the investigator's own session gets from the case routes: 404 for a case not assigned to them. */
async function investigatorCaseStatus(id: string): Promise<number> {
  return (await investigator.context.request.get(`/api/v1/manager/report/${id}`)).status();
}

async function investigatorCaseIds(): Promise<string[]> {
  const response = await investigator.context.request.get('/api/v1/manager/report/');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { results: { id: string }[] }).results.map((row) => row.id);
}

test('1. the reporter sends a recording with a message', async () => {
  const { page } = reporter;
  await page.goto(`/report-detail/${caseId}`);
  const messages = page.getByTestId('report-messages');
  await messages.getByLabel('담당자에게 보낼 메시지').fill('녹음 파일은 이렇게 보내면 될까요?');
  await messages.getByTestId('message-attachment-input').setInputFiles({
    name: RECORDING,
    mimeType: 'audio/wav',
    buffer: recording(),
  });
  await expect(messages.getByTestId('message-attachment-item')).toContainText(RECORDING);
  await messages.getByRole('button', { name: '메시지 보내기' }).click();
  await expect(messages.getByRole('link', { name: RECORDING })).toBeVisible();
  await expect(messages.getByTestId('message-attachment-item')).toHaveCount(0);
});

test('2. the manager assigns the investigator, who then sees that case and its recording, and no other', async () => {
  // Before: an investigator sees no case of the company, as if none existed.
  expect(await investigatorCaseStatus(caseId)).toBe(404);
  expect(await investigatorCaseIds()).not.toContain(caseId);

  const { page } = manager;
  await page.goto(`/manager/detail/${caseId}`);
  await expect(page.getByTestId('section-messages').getByRole('link', { name: RECORDING })).toBeVisible();
  const panel = page.getByTestId('section-assignees');
  await expect(panel).toContainText('아직 지정된 조사 담당자가 없습니다');
  await panel
    .getByRole('checkbox', { name: new RegExp(`${investigatorUser.name} \\(조사 담당자\\)`) })
    .check();
  await panel.getByTestId('save-assignees').click();
  await expect(panel.getByTestId('assignee-list')).toContainText(`${investigatorUser.name} · 조사 담당자`);
  await expect(page.getByTestId('section-audit')).toContainText('담당자 지정');

  // After: their list holds this one case; the other case of the same reporter stays a 404.
  const mine = investigator.page;
  await mine.goto('/manager');
  await expect(mine.getByTestId('report-row')).toHaveCount(1);
  const caseNumber = (
    (await (await investigator.context.request.get(`/api/v1/manager/report/${caseId}`)).json()) as {
      case_number: string;
    }
  ).case_number;
  await expect(mine.getByTestId('report-row')).toContainText(caseNumber);
  expect(await investigatorCaseIds()).toEqual([caseId]);
  expect(await investigatorCaseStatus(unassignedId)).toBe(404);
  await mine.goto(`/manager/detail/${unassignedId}`);
  await expect(mine.getByTestId('case-not-found')).toBeVisible();

  await mine.goto(`/manager/detail/${caseId}`);
  const link = mine.getByTestId('section-messages').getByRole('link', { name: RECORDING });
  await expect(link).toBeVisible();
  const download = await (await investigator.context.request.get((await link.getAttribute('href'))!)).body();
  expect(download.subarray(0, 4).toString('latin1')).toBe('RIFF');
});

test('3. the investigator proposes a protective measure', async () => {
  const { page } = investigator;
  await page.goto(`/manager/detail/${caseId}`);
  const measures = page.getByTestId('section-measures');
  await measures.getByLabel('세부 내용').fill('행위자와 다른 층으로 자리를 옮깁니다.');
  await measures.getByRole('button', { name: '추가', exact: true }).click();
  await expect(measures.getByTestId('measure')).toHaveCount(1);
});

test('4. the reporter reads the right, and objects in their own words', async () => {
  const { page } = reporter;
  await page.goto(`/report-detail/${caseId}`);
  const section = page.getByTestId('report-measures');
  await expect(section.getByTestId('measure-right')).toContainText('근로기준법 제76조의3');
  await expect(section.getByTestId('measure-item')).toHaveCount(1);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, 'case-measure-opinion-1280.png'), fullPage: true });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: join(SCREENSHOTS, 'case-measure-opinion-375.png'), fullPage: true });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  await section.getByRole('textbox').fill(OBJECTION);
  await section.getByRole('button', { name: '이 조치에 반대합니다' }).click();
  await expect(section.getByTestId('measure-opinion-recorded')).toContainText('반대했습니다');
  await expect(section.getByTestId('measure-opinion-recorded')).toContainText(OBJECTION);
});

test('5. the investigator records a reason to carry out the measure, then the outcome', async () => {
  const { page } = investigator;
  await page.goto(`/manager/detail/${caseId}`);
  const measures = page.getByTestId('section-measures');
  await expect(measures.getByTestId('measure-reporter-opinion')).toContainText('신고인 의견: 반대함');
  await expect(measures.getByTestId('measure-reporter-opinion')).toContainText(OBJECTION);
  // Granting an objected measure asks for the reason first (76-3 ④).
  await measures.getByRole('button', { name: '조치함으로 기록' }).click();
  const reasonDialog = page.getByRole('dialog');
  await expect(reasonDialog).toContainText('신고인이 반대한');
  await reasonDialog.getByLabel('사유').fill(GRANT_REASON);
  await reasonDialog.getByRole('button', { name: '조치함으로 기록' }).click();
  await expect(reasonDialog).toBeHidden();
  await expect(measures.getByTestId('measure')).toContainText(GRANT_REASON);

  const statusDialog = async () => {
    await page.getByRole('button', { name: '처리 상태 변경' }).click();
    return page.getByRole('dialog');
  };
  let dialog = await statusDialog();
  await dialog.getByRole('radio', { name: /조사 중/ }).check();
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toBeHidden();

  dialog = await statusDialog();
  await dialog.getByRole('radio', { name: /조치 완료/ }).check();
  await expect(dialog.getByTestId('outcome-fields')).toBeVisible();
  // Without the outcome the dialog asks for it instead of sending.
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toContainText('조사 결과를 골라주세요.');
  await dialog.getByRole('radio', { name: '일부 인정' }).check();
  await dialog.getByRole('checkbox', { name: '경고' }).check();
  await dialog.getByRole('checkbox', { name: '교육' }).check();
  await dialog.getByLabel('결과 요약').fill('폭언 일부가 사실로 확인되어 경고와 교육을 실시했습니다.');
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('case-outcome')).toContainText('일부 인정');
});

test('6. the reporter sees the finding', async () => {
  const { page } = reporter;
  await page.goto(`/report-detail/${caseId}`);
  const outcome = page.getByTestId('report-outcome');
  await expect(outcome).toContainText('조사 결과: 일부 인정');
  await expect(outcome).toContainText('경고와 교육을 실시했습니다');
  await expect(page.getByTestId('report-status')).toContainText('조치 완료');
});

test('7. the investigator downloads the record as a PDF holding the case number, the opinion and the finding', async () => {
  const { page, context } = investigator;
  await page.goto(`/manager/detail/${caseId}`);
  const caseNumber = (
    (await (await context.request.get(`/api/v1/manager/report/${caseId}`)).json()) as {
      case_number: string;
    }
  ).case_number;
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: '조사보고서 PDF' }).click(),
  ]);
  const pdf = readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // poppler's pdftotext reads it independently of the library that wrote it; line breaks are its own.
  const text = execFileSync('/usr/bin/pdftotext', ['-enc', 'UTF-8', (await download.path())!, '-'], {
    encoding: 'utf8',
  }).replace(/\s+/g, '');
  expect(text).toContain(caseNumber);
  expect(text).toContain('일부인정');
  expect(text).toContain(OBJECTION.replace(/\s+/g, ''));
  // Printed by the investigator, in their own session.
  expect(text).toContain(`출력:${investigatorUser.name}`);
});

test('closed means closed: only notes, messages, exclusions and a reopening with its reason', async () => {
  const { page } = manager;
  await page.goto(`/manager/detail/${caseId}`);
  await page.getByRole('button', { name: '처리 상태 변경' }).click();
  let dialog = page.getByRole('dialog');
  // From 조치 완료 the outcome is already on record: closing asks for nothing more.
  await dialog.getByRole('radio', { name: /종결/ }).check();
  await expect(dialog.getByTestId('outcome-fields')).toHaveCount(0);
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId('case-closed-notice')).toBeVisible();
  await expect(page.getByTestId('measures-closed')).toBeVisible();
  await expect(
    page.getByTestId('section-measures').getByRole('button', { name: '추가', exact: true }),
  ).toHaveCount(0);
  await expect(page.getByTestId('invitations-closed')).toBeVisible();
  await expect(page.getByTestId('section-messages').getByRole('button', { name: /보내기/ })).toBeEnabled();
  // The handlers stay as they were; keeping someone away from the case is still possible.
  const assignees = page.getByTestId('section-assignees');
  await expect(assignees.getByTestId('assignees-closed')).toBeVisible();
  await expect(assignees.getByTestId('save-assignees')).toHaveCount(0);
  await expect(assignees.getByTestId('assignee-list')).toContainText(investigatorUser.name);
  await expect(assignees.getByRole('button', { name: '사건에서 제외' })).toBeVisible();
  await page.getByTestId('section-outcome').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, 'case-closed-manager-1280.png'), fullPage: true });
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: '처리 상태 변경' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: /다시 열어/ }).check();
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toContainText('사건을 다시 여는 사유를 적어주세요.');
  await dialog.getByLabel('다시 여는 사유').fill('신고인이 추가 녹음을 보내와 다시 조사합니다.');
  await dialog.getByRole('button', { name: '상태 변경' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('case-closed-notice')).toHaveCount(0);
  await expect(assignees.getByTestId('save-assignees')).toBeVisible();
  await expect(page.getByTestId('section-timeline')).toContainText(
    '신고인이 추가 녹음을 보내와 다시 조사합니다.',
  );
});
