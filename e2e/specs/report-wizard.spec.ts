import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, loginThroughUi, pageAtRest, SCREENSHOTS, type TestUser, test } from '../fixtures';

type WizardType = 'anonym' | 'brief' | 'formal';

/** A real 1×1 PNG: the server sniffs content, so evidence must be what its name says. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const DRAFT = 'ansim.reportDraft.';

async function logIn(page: Page, user: TestUser) {
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** axe 0 violations and a full-page screenshot at 1280 and 375 px wide, back at 1280 afterwards. */
async function checkScreen(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await pageAtRest(page);
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
    expect(summary, `${name} at ${width}px`).toEqual([]);
    // From the top, so the sticky header does not land in the middle of a full-page image.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, `wizard-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function chooseType(page: Page, type: WizardType) {
  await page.goto('/report');
  await expect(page.getByRole('heading', { level: 1, name: '신고 유형 선택' })).toBeVisible();
  await page.getByTestId(`report-type-${type}`).click();
  await expect(page).toHaveURL(/\/report\/t$/);
  await page.getByRole('link', { name: '작성 시작하기' }).click();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=1$/);
}

const stepTitle = (page: Page) => page.locator('#step-title');
const next = (page: Page) => page.getByTestId('wizard-next').click();

async function fillParties(page: Page, type: WizardType) {
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');
  // Next is blocked until the step is valid, with the Korean message on the field.
  await next(page);
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');
  await expect(page.locator('#draft-perpetrator_name-helper-text')).toHaveText('필수 입력 항목입니다.');
  await expect(page.locator('#draft-perpetrator_name'))
    .toBeFocused({ timeout: 2000 })
    .catch(() => undefined);
  await page.getByRole('radio', { name: '피해자 본인' }).check();
  if (type === 'anonym') {
    await expect(page.getByTestId('anonym-notice')).toContainText('회사는 누가 신고했는지 알 수 없습니다.');
    await expect(page.locator('#draft-reporter_name')).toHaveCount(0);
  } else {
    await page.locator('#draft-reporter_name').fill('홍길동');
    await page.locator('#draft-reporter_department').fill('개발팀');
  }
  await page.locator('#draft-perpetrator_name').fill('김부장');
  await page.locator('#draft-perpetrator_role').fill('부장');
  await page.locator('#draft-relationship').selectOption('상급자');
}

async function fillActs(page: Page, options: { slowUpload: boolean }) {
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  await expect(page.locator('#draft-acts-0-date')).toBeFocused();
  await page.locator('#draft-acts-0-date').fill('2025년 3월 초');
  await page.locator('#draft-acts-0-location').fill('3층 회의실');
  await page
    .locator('#draft-acts-0-description')
    .fill('팀 회의 중 여러 사람 앞에서 반복적으로 고함을 쳤습니다.');
  // The upload is held until the in-flight progress bar has been seen, so the bar cannot vanish before the check.
  let releaseUpload: () => void = () => {};
  const uploadReleased = new Promise<void>((resolve) => {
    releaseUpload = resolve;
  });
  if (options.slowUpload) {
    await page.route('**/api/v1/file/', async (route) => {
      if (route.request().method() === 'POST') await uploadReleased;
      await route.continue();
    });
  }
  await page.getByTestId('evidence-input-acts-0').setInputFiles({
    name: '메신저-캡처.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  if (options.slowUpload) {
    const bar = page.getByTestId('evidence-progress');
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuenow', /\d+/);
    releaseUpload();
  }
  const done = page.getByTestId('evidence-progress-done');
  await expect(done).toBeVisible();
  await expect(done).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('evidence-item')).toContainText('메신저-캡처.png');
  if (options.slowUpload) await page.unroute('**/api/v1/file/');
}

async function reloadAndFindDraft(page: Page, type: WizardType) {
  await page.reload();
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await expect(page.locator('#draft-acts-0-date')).toHaveValue('2025년 3월 초');
  await expect(page.locator('#draft-acts-0-description')).toHaveValue(
    '팀 회의 중 여러 사람 앞에서 반복적으로 고함을 쳤습니다.',
  );
  await expect(page.getByTestId('evidence-item')).toContainText('메신저-캡처.png');
  await page.getByRole('button', { name: '이전 단계' }).click();
  await expect(page.locator('#draft-perpetrator_name')).toHaveValue('김부장');
  if (type !== 'anonym') await expect(page.locator('#draft-reporter_name')).toHaveValue('홍길동');
  await next(page);
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await next(page);
}

async function fillHarms(page: Page) {
  await expect(stepTitle(page)).toHaveText('피해 내용 및 요구사항');
  await page.getByRole('button', { name: '피해 내용 추가' }).click();
  await page.locator('#draft-harms-0-type').selectOption('mental');
  await page.locator('#draft-harms-0-description').fill('잠을 이루지 못해 병원 진료를 받았습니다.');
  await page.getByTestId('evidence-input-harms-0').setInputFiles({
    name: '진료-메모.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('3월 10일 내과 진료, 불면 증상 상담', 'utf8'),
  });
  await expect(page.getByTestId('evidence-progress-done')).toBeVisible();
  await page.getByRole('checkbox', { name: '객관적인 사실 조사' }).check();
  await page.getByRole('checkbox', { name: '재발 방지 대책' }).check();
}

async function fillWitnesses(page: Page, title: string) {
  await expect(stepTitle(page)).toHaveText(title);
  await page.getByRole('button', { name: '참고인 추가' }).click();
  await page.locator('#draft-witnesses-0-name').fill('이참고');
  await page.locator('#draft-witnesses-0-email').fill('witness@demo.example');
  await page.locator('#draft-extra_info').fill('회의록이 남아 있습니다.');
}

async function submitAndFind(page: Page, type: WizardType) {
  await expect(page.getByTestId('wizard-review')).toBeVisible();
  await expect(page.getByTestId('wizard-review')).toContainText('김부장');
  await expect(page.getByTestId('wizard-review')).toContainText('메신저-캡처.png');
  await checkScreen(page, `${type}-review`);
  await page.getByTestId('wizard-submit').click();
  // An anonymous report shows its receipt once before the case (R-ANON-3; anonymous.spec.ts tests it).
  if (type === 'anonym') await page.getByTestId('receipt-continue').click();
  await expect(page).toHaveURL(/\/report-detail\/[0-9a-f-]{36}\/$/);
  await expect(page.getByRole('status')).toContainText('신고가 성공적으로 접수되었습니다.');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^사건 \d{4}-[0-9A-HJKMNP-TV-Z]{6}$/);
  const caseNumber = (await heading.textContent())!.replace('사건 ', '');
  await expect(page.getByTestId('report-status')).toHaveText('접수');
  await expect(page.getByTestId('report-files')).toContainText('메신저-캡처.png');
  await expect(page.getByTestId('report-content')).toContainText('김부장');
  if (type === 'anonym') await expect(page.getByTestId('report-overview')).toContainText('회사는 누가');
  // The draft left the device with the submission.
  expect(await page.evaluate((prefix) => localStorage.getItem(`${prefix}report_type`), DRAFT)).toBeNull();
  await checkScreen(page, `${type}-detail`);

  await page.goto('/dashboard');
  const row = page.getByTestId('report-row').filter({ hasText: caseNumber });
  // An anonymous report is not linked to the account, so the account's list does not hold it.
  if (type === 'anonym') {
    await expect(row).toHaveCount(0);
    return caseNumber;
  }
  await expect(row).toBeVisible();
  await expect(row).toContainText(type === 'brief' ? '약식 신고' : '정식 신고');
  await expect(row.getByTestId('report-status')).toHaveText('접수');
  await checkScreen(page, `${type}-dashboard`);
  return caseNumber;
}

const STEP_COUNTS: Record<WizardType, number> = { anonym: 4, brief: 4, formal: 5 };

for (const type of ['anonym', 'brief', 'formal'] as const) {
  test(`${type}: every step, evidence with progress, reload keeps the draft, submit, detail and dashboard`, async ({
    page,
    member,
  }) => {
    test.setTimeout(180_000);
    await logIn(page, member);
    await chooseType(page, type);
    await expect(page.getByTestId('wizard-stepper').getByRole('listitem')).toHaveCount(STEP_COUNTS[type]);

    await fillParties(page, type);
    await checkScreen(page, `${type}-1-parties`);
    await next(page);
    await fillActs(page, { slowUpload: type === 'anonym' });
    await checkScreen(page, `${type}-2-acts`);
    await reloadAndFindDraft(page, type);
    await fillHarms(page);
    await checkScreen(page, `${type}-3-harms`);
    await next(page);

    if (type === 'anonym') {
      await expect(stepTitle(page)).toHaveText('사건 처리 과정에 대한 우려');
      await page.getByRole('button', { name: '우려 사항 추가' }).click();
      await page.locator('#draft-concerns-0-concern').fill('신고한 사실이 팀에 알려질까 걱정됩니다.');
      await page
        .locator('#draft-concerns-0-companyRequest')
        .fill('저를 짐작할 수 있는 내용은 언급하지 말아주세요.');
      await checkScreen(page, 'anonym-4-concerns');
    } else if (type === 'brief') {
      await fillWitnesses(page, '참고인 제안 및 기타 사항');
      await checkScreen(page, 'brief-4-witnessSuggestion');
    } else {
      await expect(stepTitle(page)).toHaveText('보호조치 요청');
      await page.getByRole('checkbox', { name: '기타' }).check();
      await next(page);
      // 'Other' needs its text before moving on.
      await expect(stepTitle(page)).toHaveText('보호조치 요청');
      await expect(page.locator('#draft-protection_etc-helper-text')).toHaveText('필수 입력 항목입니다.');
      await page.getByRole('checkbox', { name: '유급휴가' }).check();
      await page.locator('#draft-protection_etc').fill('조사 기간 동안 재택근무를 원합니다.');
      await checkScreen(page, 'formal-4-protection');
      await next(page);
      await fillWitnesses(page, '참고인 및 기타 사항');
      await checkScreen(page, 'formal-5-witnesses');
    }
    await next(page);
    await submitAndFind(page, type);
  });
}

test('reset asks first, then keeps only the report type and returns to step 0', async ({ page, member }) => {
  await logIn(page, member);
  await chooseType(page, 'brief');
  await page.getByRole('radio', { name: '목격자 등 제3자' }).check();
  await page.locator('#draft-reporter_name').fill('홍길동');
  await page.locator('#draft-perpetrator_name').fill('김부장');
  await next(page);
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  await page.locator('#draft-acts-0-date').fill('어제');

  await page.getByRole('button', { name: '처음부터 다시 작성' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('선택한 신고 유형(약식 신고)은 그대로 유지됩니다.');
  await checkScreen(page, 'reset-dialog');
  await dialog.getByRole('button', { name: '계속 작성하기' }).click();
  await expect(page.locator('#draft-acts-0-date')).toHaveValue('어제');

  await page.getByRole('button', { name: '처음부터 다시 작성' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '모두 지우기' }).click();
  await expect(page.getByRole('status')).toContainText('신고 유형은 유지됩니다.');
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');
  await expect(page.locator('#draft-reporter_name')).toHaveValue('');
  await expect(page.locator('#draft-perpetrator_name')).toHaveValue('');
  await expect(page.getByRole('radio', { name: '목격자 등 제3자' })).not.toBeChecked();

  await page.reload();
  await expect(page).toHaveURL(/\/report\/t\/a\?step=1$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('약식 신고 작성');
  await expect(stepTitle(page)).toHaveText('신고인·행위자 정보 및 관계');
  await expect(page.locator('#draft-reporter_name')).toHaveValue('');
  const draft = await page.evaluate((prefix) => {
    const entries: Record<string, string> = {};
    for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) entries[key] = localStorage[key];
    return entries;
  }, DRAFT);
  expect(JSON.parse(draft[`${DRAFT}report_type`]!)).toBe('brief');
  expect(JSON.parse(draft[`${DRAFT}acts`]!)).toEqual([]);
  expect(draft[`${DRAFT}idempotency_key`]).toBeUndefined();
});

test('a file over the limit and a disguised file each show the server Korean message', async ({
  page,
  member,
}) => {
  await logIn(page, member);
  await chooseType(page, 'anonym');
  await page.getByRole('radio', { name: '피해자 본인' }).check();
  await page.locator('#draft-perpetrator_name').fill('김부장');
  await next(page);
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  const input = page.getByTestId('evidence-input-acts-0');

  // The e2e server runs with MAX_FILE_BYTES = 5 MB (global-setup.ts).
  await input.setInputFiles({
    name: '회의-녹음.m4a',
    mimeType: 'audio/mp4',
    buffer: Buffer.alloc(6 * 1024 * 1024, 1),
  });
  const tooLarge = page.getByTestId('evidence-error').filter({ hasText: '회의-녹음.m4a' });
  await expect(tooLarge).toContainText('파일이 너무 큽니다. 파일 하나는 5 MB까지 올릴 수 있습니다.');

  await input.setInputFiles({
    name: '사진.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
  });
  const disguised = page.getByTestId('evidence-error').filter({ hasText: '사진.jpg' });
  await expect(disguised).toContainText(
    '증거 파일은 사진, PDF, 녹음·영상, 문서(한글·오피스), 텍스트 파일만 올릴 수 있습니다.',
  );
  await expect(page.getByTestId('evidence-item')).toHaveCount(0);
  await checkScreen(page, 'evidence-errors');

  // Removing an attached file deletes it and takes its id out of the draft.
  await input.setInputFiles({ name: '캡처.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('evidence-item')).toContainText('캡처.png');
  await page.getByRole('button', { name: '캡처.png 삭제' }).click();
  await expect(page.getByTestId('evidence-item')).toHaveCount(0);
  const acts = await page.evaluate((prefix) => localStorage.getItem(`${prefix}acts`), DRAFT);
  expect(JSON.parse(acts!)[0].evidences).toEqual([]);
});

test('a named report’s file whose hidden data could not be removed is flagged at upload', async ({
  page,
  member,
}) => {
  // Two widths of axe on a long form: room for a busy machine.
  test.setTimeout(180_000);
  await logIn(page, member);
  await chooseType(page, 'brief');
  await fillParties(page, 'brief');
  await next(page);
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  // An HWP 5 file (an OLE compound file): its summary stream keeps the author, and no cleaner edits it.
  await page.getByTestId('evidence-input-acts-0').setInputFiles({
    name: '진술서.hwp',
    mimeType: 'application/x-hwp',
    buffer: Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024)]),
  });
  const item = page.getByTestId('evidence-item').filter({ hasText: '진술서.hwp' });
  await expect(item.getByTestId('evidence-metadata-kept')).toHaveText(
    '이 파일에서는 작성자·촬영 위치 같은 숨은 정보를 지우지 못했습니다. 담당자가 파일을 열면 그 정보를 그대로 볼 수 있습니다.',
  );
  await checkScreen(page, 'evidence-metadata-kept');
});

test('the wizard is usable with the keyboard alone', async ({ page, member }) => {
  await logIn(page, member);
  await chooseType(page, 'anonym');
  await page.getByRole('radio', { name: '피해자 본인' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('radio', { name: '피해자 본인' })).toBeChecked();
  await page.locator('#draft-perpetrator_name').focus();
  await page.keyboard.type('김부장');
  await page.getByTestId('wizard-next').focus();
  await page.keyboard.press('Enter');
  await expect(stepTitle(page)).toHaveText('괴롭힘 행위 및 증거');
  await expect(stepTitle(page)).toBeFocused();
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#draft-acts-0-date')).toBeFocused();
  await page.keyboard.type('지난주 월요일');
  await page.keyboard.press('Tab');
  await expect(page.locator('#draft-acts-0-location')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('#draft-acts-0-description')).toBeFocused();
  await page.keyboard.type('회의 중 고함');
  expect(await page.evaluate((prefix) => localStorage.getItem(`${prefix}acts`), DRAFT)).toContain(
    '회의 중 고함',
  );
});

test('the wizard route without a type goes to type choice; a company-less user sees NO_COMPANY', async ({
  page,
  user,
}) => {
  await logIn(page, user);
  await page.goto('/report/t/a');
  await expect(page).toHaveURL(/\/report$/);
  // An anonymous draft needs a company to file to before anything is typed (its intake token, R-ANON-2).
  await chooseType(page, 'anonym');
  await expect(page.getByText('익명 신고를 준비하지 못했습니다.')).toContainText(
    '소속 회사가 확인되지 않았습니다.',
  );
  await chooseType(page, 'brief');
  await page.getByRole('radio', { name: '피해자 본인' }).check();
  await page.locator('#draft-reporter_name').fill('홍길동');
  await page.locator('#draft-perpetrator_name').fill('김부장');
  await next(page);
  await page.getByRole('button', { name: '괴롭힘 행위 추가' }).click();
  await page.locator('#draft-acts-0-date').fill('어제');
  await page.locator('#draft-acts-0-description').fill('폭언');
  await next(page);
  await next(page);
  await next(page);
  await page.getByTestId('wizard-submit').click();
  await expect(page.getByTestId('submit-error')).toContainText('소속 회사가 확인되지 않았습니다.');
  await expect(page).toHaveURL(/\/report\/t\/a\?step=\d+$/);
  await expect(page.getByTestId('wizard-submit')).toBeEnabled();
});
