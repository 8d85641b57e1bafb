import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, loginThroughUi, pageAtRest, SCREENSHOTS, test } from '../fixtures';
import { readServerState } from '../server-state';

/**
 * R-WIZ-7: a member whose address matched no company learns it on the type chooser, before the wizard, and
 * joins the company with its join code on the account page.
 */

function demoJoinCode(): string {
  const match = /join code: (\S+)/.exec(readFileSync(readServerState().logFile, 'utf8'));
  if (!match) throw new Error('The server log has no join code of the demo company');
  return match[1]!;
}

/** axe with 0 violations, nothing sticking out sideways, and a full-page screenshot at both widths. */
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
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows at ${width}px`).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, `join-company-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a member without a company is told on the type chooser and joins with the join code', async ({
  page,
  user,
}) => {
  test.setTimeout(150_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/login');
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/report');
  const notice = page.getByTestId('report-no-company');
  await expect(notice).toContainText('소속 회사가 아직 확인되지 않았습니다');
  await expect(notice).toContainText('익명 신고 링크');
  await checkScreen(page, 'type-chooser-notice');

  await notice.getByRole('link', { name: '가입 코드 입력하기' }).click();
  await expect(page).toHaveURL(/\/account\/security#join-company$/);
  const section = page.getByRole('region', { name: '소속 회사' });
  const field = section.getByRole('textbox', { name: '가입 코드' });
  await expect(field).toBeVisible();
  await expect(section).toBeInViewport();
  await checkScreen(page, 'account');

  await field.fill('NO-SUCH-CODE');
  await section.getByRole('button', { name: '회사 연결하기' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    '가입 코드를 찾을 수 없습니다. 회사에서 받은 코드를 다시 확인해주세요.',
  );
  await expect(section.getByRole('alert')).toBeFocused();
  await checkScreen(page, 'account-wrong-code');

  await field.fill(demoJoinCode());
  await section.getByRole('button', { name: '회사 연결하기' }).click();
  await expect(page.getByText('데모 주식회사에 연결되었습니다.')).toBeVisible();
  await expect(section.getByTestId('company-name')).toHaveText(
    '이 계정은 데모 주식회사 소속으로 신고합니다.',
  );
  await expect(section.getByRole('textbox', { name: '가입 코드' })).toHaveCount(0);
  await checkScreen(page, 'account-joined');

  await page.goto('/report');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('report-type-brief')).toBeVisible();
  await expect(page.getByTestId('report-no-company')).toHaveCount(0);
});
