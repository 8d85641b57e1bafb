import { expect, loginThroughUi, newUser, server, test } from '../fixtures';
import { waitForMailLink } from '../mailbox';

test('register through the UI → confirmation mail → confirm → login with the real captcha → dashboard', async ({
  page,
}) => {
  const user = newUser();
  await page.goto('/register');
  await page.getByRole('button', { name: '가입하기' }).click();
  // Every empty required field says the same thing (name, e-mail, password, confirmation).
  await expect(page.getByText('필수 입력 항목입니다.')).toHaveCount(4);

  await page.getByLabel('이름').fill(user.name);
  await page.getByLabel('이메일').fill(user.email);
  await page.getByLabel('비밀번호', { exact: false }).first().fill(user.password);
  await page.getByLabel('비밀번호 확인').fill(`${user.password}x`);
  await page.getByRole('button', { name: '가입하기' }).click();
  await expect(page.getByText('비밀번호가 일치하지 않습니다.')).toBeVisible();
  await page.getByLabel('비밀번호 확인').fill(user.password);
  await page.getByRole('button', { name: '가입하기' }).click();
  await expect(page.getByTestId('register-sent')).toContainText(user.email);

  const link = await waitForMailLink(server.dataDir, user.email, '/register/confirm');
  expect(new URL(link).origin).toBe(server.baseURL);
  await page.goto(link);
  await expect(page.getByTestId('confirm-success')).toContainText(user.email);

  await page.getByRole('link', { name: '로그인하기' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await loginThroughUi(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard-greeting')).toHaveText(`${user.name}님, 안녕하세요.`);
  await expect(page.getByRole('link', { name: '로그아웃' })).toBeVisible();
});

test('wrong password shows the server message and a fresh captcha', async ({ page, user }) => {
  await page.goto('/login');
  await loginThroughUi(page, { ...user, password: 'wrong-password-1' });
  await expect(page.getByRole('alert')).toContainText('이메일 또는 비밀번호가 올바르지 않습니다.');
  await expect(page).toHaveURL(/\/login$/);
  // The used payload is single-use; the widget solves a new challenge and the retry succeeds.
  await page.getByLabel('비밀번호').fill(user.password);
  await page.waitForFunction(() => document.querySelector('altcha-widget')?.getState?.() === 'verified');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
