import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page, Request } from '@playwright/test';
import {
  createCompanyMember,
  ensureManagerTotp,
  expect,
  loginThroughUi,
  pageAtRest,
  SCREENSHOTS,
  server,
  solveCaptcha,
  type TestUser,
  test,
} from '../fixtures';
import { readServerState } from '../server-state';
import { type ReceivedMail, readMail } from '../smtp-mailbox';

/**
 * R-ANON and R-EMP end to end, in Chromium: anonymous reports that no account can be tied to. A member files one and
 * follows it after logging out with nothing but the receipt; a stranger files through the company's public
 * intake link; and a manager's status change mails nothing to the member's work address, only a notice
 * without case number or company to the private address given in the wizard.
 */

/** A real 1×1 PNG: the server sniffs content, so evidence must be what its name says. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const COMPANY = '데모 주식회사';
const SAVED_RECEIPTS = 'ansim.savedReceipts';

/** The log of the global setup's server: its first start printed the demo accounts and the intake link. */
function serverLog(): string {
  return readFileSync(readServerState().logFile, 'utf8');
}

function demoManager(): TestUser {
  const match = /manager@demo\.example\s+비밀번호 password: (\S+)/.exec(serverLog());
  if (!match) throw new Error('The server log has no demo manager account (was the data directory fresh?)');
  return { email: 'manager@demo.example', password: match[1]!, name: '김담당' };
}

function demoIntakeCode(): string {
  const match = /intake link: \/c\/([A-Za-z0-9-]+)/.exec(serverLog());
  if (!match) throw new Error('The server log has no intake link of the demo company');
  return match[1]!;
}

/** Every mail the server wrote to DATA_DIR/mail for this address (the global setup sends no SMTP). */
function mailsTo(address: string): Promise<ReceivedMail[]> {
  const dir = join(server.dataDir, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.eml'));
  } catch {
    // No mail yet.
  }
  return Promise.all(
    files
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .filter((raw) => /^to:.*$/im.exec(raw)?.[0].toLowerCase().includes(address.toLowerCase()))
      .map((raw) => readMail(raw, [address])),
  );
}

const VIEWPORTS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '375', width: 375, height: 812 },
];

/** axe with 0 violations, nothing sticking out sideways, and a full-page screenshot at both widths. */
async function checkScreen(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await pageAtRest(page);
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
    expect(summary, `${name} at ${viewport.label}px`).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows at ${viewport.label}px`).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: join(SCREENSHOTS, `anonymous-${name}-${viewport.label}.png`),
      // A dialog is fixed to the viewport: the page under its backdrop is not what is being shown.
      fullPage: options.fullPage ?? true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Headers of the requests that must carry the intake token, recorded as the browser sends them. */
function recordDraftCalls(page: Page): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (
      (url.pathname === '/api/v1/file/' && request.method() === 'POST') ||
      (url.pathname === '/api/v1/report/' && request.method() === 'POST')
    )
      calls.push(request);
  });
  return calls;
}

const stepTitle = (page: Page) => page.locator('#step-title');
const next = (page: Page) => page.getByTestId('wizard-next').click();

/** From /report/t to the review screen of an anonymous report, with one evidence file. */
async function writeAnonymousReport(page: Page, accused: string) {
  await expect(page.getByTestId('anonymity-facts')).toContainText('어느 계정에서 신고했는지');
  await page.getByRole('link', { name: '작성 시작하기' }).click();
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');
  await page.getByRole('radio', { name: '피해자 본인' }).check();
  await page.locator('#draft-perpetrator_name').fill(accused);
  await next(page);

  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  await page.locator('#draft-acts-0-date').fill('2026년 3월 초');
  await page.locator('#draft-acts-0-location').fill('3층 회의실');
  await page
    .locator('#draft-acts-0-description')
    .fill('회의 중 여러 사람 앞에서 반복적으로 고함을 쳤습니다.');
  await page.getByTestId('evidence-input-acts-0').setInputFiles({
    name: '김안심_메신저-캡처.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await expect(page.getByTestId('evidence-progress-done')).toBeVisible();
  // Beside the upload: a file once sent under an account links the two.
  await expect(
    page.getByText('회원 계정으로 한 번이라도 올린 적이 있는 파일', { exact: false }),
  ).toBeVisible();
  await next(page);

  await expect(stepTitle(page)).toHaveText('피해 내용 및 요구사항');
  await page.getByRole('button', { name: '피해 내용 추가' }).click();
  await page.locator('#draft-harms-0-type').selectOption('mental');
  await page.locator('#draft-harms-0-description').fill('잠을 이루지 못했습니다.');
  await page.getByRole('checkbox', { name: '객관적인 사실 조사' }).check();
  await next(page);

  await expect(stepTitle(page)).toHaveText('사건 처리 과정에 대한 우려');
  await page.getByRole('button', { name: '우려 사항 추가' }).click();
  await page.locator('#draft-concerns-0-concern').fill('신고한 사실이 팀에 알려질까 걱정됩니다.');
  await page
    .locator('#draft-concerns-0-companyRequest')
    .fill('저를 짐작할 수 있는 내용은 언급하지 말아주세요.');
  await next(page);
  await expect(page.getByTestId('wizard-review')).toBeVisible();
}

/** The review shows the file as the company will see it; submitting shows the receipt once. */
async function submitAndReadReceipt(page: Page, options: { contactEmail?: string; screens: boolean }) {
  const preview = page.getByTestId('evidence-preview');
  await expect(preview.getByTestId('evidence-generic-name')).toHaveText('증거자료-1.png');
  await expect(preview.getByTestId('evidence-preview-item')).toContainText('사진 · ');
  await expect(preview.getByTestId('evidence-metadata')).toHaveText(/작성자·위치 정보 (삭제됨|없음)/);
  // The summary of the content names the file as the company will, not as it was uploaded.
  // Only the reporter's own caption in the preview still shows the uploaded name.
  await expect(
    page.getByTestId('wizard-review').getByText('김안심_메신저-캡처.png', { exact: false }),
  ).toHaveCount(1);
  if (options.contactEmail) await page.getByTestId('contact-email').fill(options.contactEmail);
  await page.getByTestId('wizard-submit').click();
  const dialog = page.getByTestId('receipt-dialog');
  await expect(dialog).toBeVisible();
  const receipt = (await dialog.getByTestId('receipt-number').textContent())!;
  expect(receipt).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
  await expect(dialog.getByTestId('receipt-warning')).toContainText('한 번만');
  if (options.screens) await checkScreen(page, 'receipt-dialog', { fullPage: false });
  return receipt;
}

async function openReceiptPage(browser: Browser) {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/receipt');
  await expect(page.getByRole('heading', { level: 1, name: '접수번호로 내 신고 보기' })).toBeVisible();
  return { context, page };
}

async function submitReceipt(page: Page, receipt: string) {
  await page.getByRole('textbox', { name: /접수번호/ }).fill(receipt);
  await solveCaptcha(page);
  await page.getByTestId('receipt-submit').click();
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

let member: TestUser;
let memberReport: { id: string; receipt: string; caseNumber: string };
const privateAddress = `private-${Date.now().toString(36)}@example.org`;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: server.baseURL });
  member = await createCompanyMember(request);
  await request.dispose();
});

test('a member files anonymously, gets a receipt, logs out and follows the case with it in a fresh browser', async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/login');
  await loginThroughUi(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('saved-receipts')).toContainText('이 기기에 저장한 접수번호가 있을 때만');

  await page.goto('/report');
  await expect(page.getByTestId('anonymity-facts')).toContainText('회사가 알 수 없는 것');
  await page.getByTestId('report-type-anonym').click();
  await expect(page).toHaveURL(/\/report\/t$/);
  const draftCalls = recordDraftCalls(page);
  await writeAnonymousReport(page, '박행위');
  const receipt = await submitAndReadReceipt(page, { contactEmail: privateAddress, screens: true });

  // The upload and the submission carried the draft's intake token, not only the account cookie.
  expect(draftCalls.map((call) => new URL(call.url()).pathname)).toEqual([
    '/api/v1/file/',
    '/api/v1/report/',
  ]);
  for (const call of draftCalls) expect(await call.headerValue('x-intake-token')).toBeTruthy();

  await page.getByTestId('receipt-save').check();
  await page.getByTestId('receipt-continue').click();
  await expect(page).toHaveURL(/\/report-detail\/[0-9a-f-]{36}\/$/);
  const id = /report-detail\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^사건 \d{4}-[0-9A-HJKMNP-TV-Z]{6}$/);
  memberReport = { id, receipt, caseNumber: (await heading.textContent())!.replace('사건 ', '') };
  await expect(page.getByTestId('report-status')).toHaveText('접수');

  // Not listed under the account: only through the receipt saved on this device.
  await page.goto('/dashboard');
  await expect(page.getByTestId('report-row').filter({ hasText: memberReport.caseNumber })).toHaveCount(0);
  await expect(page.getByTestId('saved-receipt')).toContainText(`끝자리 ${receipt.slice(-4)}`);

  await page.goto('/logout');
  await expect(page.getByText('로그아웃되었습니다. 이 기기에')).toBeVisible();
  const saved = await page.evaluate((key) => localStorage.getItem(key), SAVED_RECEIPTS);
  expect(saved).toContain(receipt.replaceAll(' ', ''));
  await context.close();

  const fresh = await openReceiptPage(browser);
  await checkScreen(fresh.page, 'receipt-page');
  await submitReceipt(fresh.page, '0000 0000 0000 0000');
  await expect(fresh.page.getByTestId('receipt-error')).toHaveText(
    '접수번호가 맞지 않습니다. 다시 확인해주세요.',
  );
  await submitReceipt(fresh.page, receipt);
  await expect(fresh.page).toHaveURL(new RegExp(`/report-detail/${id}/$`));
  await expect(fresh.page.getByRole('heading', { level: 1 })).toHaveText(`사건 ${memberReport.caseNumber}`);
  await expect(fresh.page.getByTestId('report-timeline')).toContainText('접수');
  await expect(fresh.page.getByTestId('receipt-session-note')).toBeVisible();
  await fresh.page
    .getByRole('textbox', { name: '담당자에게 보낼 메시지' })
    .fill('추가로 말씀드릴 것이 있습니다.');
  await fresh.page.getByRole('button', { name: '메시지 보내기' }).click();
  await expect(fresh.page.getByTestId('report-messages')).toContainText('추가로 말씀드릴 것이 있습니다.');
  // The receipt opens this one report and nothing of an account.
  expect((await fresh.context.request.get('/api/v1/user/')).status()).toBe(401);
  await fresh.page.getByTestId('receipt-session-end').click();
  await expect(fresh.page).toHaveURL(/\/receipt$/);
  expect((await fresh.context.request.get(`/api/v1/report/${id}`)).status()).not.toBe(200);
  await fresh.context.close();
});

test('a stranger files through /c/{code} without an account', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/c/no-such-code');
  await expect(page.getByRole('heading', { level: 1, name: '신고 링크를 찾을 수 없습니다' })).toBeVisible();

  await page.goto(`/c/${demoIntakeCode()}`);
  await expect(page.getByRole('heading', { level: 1, name: `${COMPANY} 익명 신고` })).toBeVisible();
  await expect(page.getByTestId('anonymity-facts')).toContainText(
    '회사 메일 주소로는 이 신고에 관한 메일을 보내지 않습니다',
  );
  await checkScreen(page, 'intake-page');
  await solveCaptcha(page);
  await page.getByTestId('intake-start').click();
  await expect(page).toHaveURL(/\/report\/t$/);
  await writeAnonymousReport(page, '최행위');
  // A reload keeps the draft and its file: the intake token is kept with it.
  await page.reload();
  await expect(page.getByTestId('evidence-preview').getByTestId('evidence-generic-name')).toHaveText(
    '증거자료-1.png',
  );
  await submitAndReadReceipt(page, { screens: false });
  await page.getByTestId('receipt-continue').click();
  await expect(page).toHaveURL(/\/report-detail\/[0-9a-f-]{36}\/$/);
  await expect(page.getByTestId('report-status')).toHaveText('접수');
  await expect(page.getByTestId('report-content')).toContainText('최행위');
  const cookies = (await context.cookies()).map((cookie) => cookie.name);
  expect(cookies).not.toContain('sessionid');
  expect(cookies).toContain('receiptid');
  await context.close();
});

test('a work address for notices is refused at the field, with the reason in Korean', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(`/c/${demoIntakeCode()}`);
  await solveCaptcha(page);
  await page.getByTestId('intake-start').click();
  await expect(page).toHaveURL(/\/report\/t$/);
  await writeAnonymousReport(page, '정행위');
  // The demo company's verified domain: the employer's mail server would read the notices.
  await page.getByTestId('contact-email').fill('someone@demo.example');
  await page.getByTestId('wizard-submit').click();
  const field = page.locator('#contact_email');
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const message = page.getByText('개인 메일 주소를 입력하거나', { exact: false });
  await expect(message).toBeVisible();
  await expect(page.getByTestId('receipt-dialog')).toHaveCount(0);
  // The whole review page, so the screenshot shows the message under the field.
  await checkScreen(page, 'contact-refused');
  // Typing clears the refusal; a private address goes through.
  await page.getByTestId('contact-email').fill(`private-${Date.now().toString(36)}@example.org`);
  await expect(message).toHaveCount(0);
  await context.close();
});

test("a manager's status change mails nothing to the work address, and a bare notice to the private one", async ({
  playwright,
}) => {
  expect(memberReport, 'the first test filed the report').toBeTruthy();
  const workMailsBefore = (await mailsTo(member.email)).length;
  // Managers must have a second factor: this logs the demo manager in and enrols TOTP unless a spec did.
  const manager = await playwright.request.newContext({ baseURL: server.baseURL });
  await ensureManagerTotp(manager, server.baseURL, demoManager());
  await manager.get('/api/csrf');
  const csrf = (await manager.storageState()).cookies.find((cookie) => cookie.name === 'csrftoken')!.value;
  const changed = await manager.patch(`/api/v1/manager/report/${memberReport.id}`, {
    headers: { 'X-CSRFToken': csrf },
    data: { status: 'investigating', note_for_reporter: '조사를 시작했습니다.', internal_note: '' },
  });
  expect(changed.status(), await changed.text()).toBe(200);

  await expect
    .poll(async () => (await mailsTo(privateAddress)).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  const [notice] = await mailsTo(privateAddress);
  const everything = `${notice!.subject}\n${notice!.text}\n${notice!.html}\n${notice!.raw}`;
  expect(everything).not.toContain(memberReport.caseNumber);
  expect(everything).not.toContain(memberReport.id);
  expect(everything).not.toContain(COMPANY);
  const links = [...notice!.text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map(
    (match) => new URL(match[0]).pathname,
  );
  expect(links.length).toBeGreaterThan(0);
  for (const path of links) expect(path).toBe('/receipt');
  // The notice has gone out, so anything the same change mailed has too: nothing reached the work address.
  expect(await mailsTo(member.email)).toHaveLength(workMailsBefore);
  await manager.dispose();
});
