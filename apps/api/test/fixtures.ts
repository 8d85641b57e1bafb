import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { companies, companyDomains, users } from '../src/db/schema.ts';
import { createOperator } from '../src/domain/operator/create-operator.ts';
import {
  enrolTotp,
  latestMail,
  logIn,
  registerAndLogin,
  STRONG_PASSWORD,
  TestClient,
  type TestContext,
  tokenFromMail,
} from './helpers.ts';

export async function createCompany(ctx: TestContext, name: string, domain: string): Promise<string> {
  const [company] = await ctx.database.db
    .insert(companies)
    .values({ name, joinCode: `JOIN-${randomBytes(4).toString('hex')}` })
    .returning();
  await ctx.database.db.insert(companyDomains).values({ domain, companyId: company!.id });
  return company!.id;
}

/**
 * A logged-in manager with TOTP enrolled, as every manager must be (otherwise 403 MFA_ENROLLMENT_REQUIRED).
 * `enrolled: false` leaves the second factor out, for tests of that refusal.
 */
export async function createManager(
  ctx: TestContext,
  email: string,
  options: { enrolled?: boolean; role?: 'investigator' | 'manager' | 'admin'; name?: string } = {},
): Promise<TestClient> {
  const client = await registerAndLogin(ctx, email, { name: options.name ?? '김담당' });
  await ctx.database.db
    .update(users)
    .set({ role: options.role ?? 'manager' })
    .where(eq(users.email, email.toLowerCase()));
  if (options.enrolled !== false) await enrolTotp(client, email);
  return client;
}

/**
 * A logged-in case handler of the given role (investigator, manager or admin) with TOTP enrolled, and their id.
 * `name` matters for conflicts of interest: a handler named like the accused person is excluded from the case.
 */
export async function createHandler(
  ctx: TestContext,
  email: string,
  role: 'investigator' | 'manager' | 'admin',
  options: { name?: string } = {},
): Promise<{ client: TestClient; id: string }> {
  const client = await registerAndLogin(ctx, email, { name: options.name ?? '이조사' });
  const [user] = await ctx.database.db
    .update(users)
    .set({ role })
    .where(eq(users.email, email.toLowerCase()))
    .returning({ id: users.id });
  await enrolTotp(client, email);
  return { client, id: user!.id };
}

/**
 * The platform's operator as `operator:create` makes one: the mailed set-password link, a login, TOTP enrolled
 * (the console answers 403 MFA_ENROLLMENT_REQUIRED before). Logged in afterwards.
 */
export async function createOperatorClient(ctx: TestContext, email: string): Promise<TestClient> {
  await createOperator(ctx, { email });
  const mail = await latestMail(ctx.database, email);
  const token = tokenFromMail(mail!.text, '/reset-password');
  const client = new TestClient(ctx.app);
  const reset = await client.post('/api/v1/user/email/reset-password', { token, password: STRONG_PASSWORD });
  if (reset.statusCode !== 200) throw new Error(`operator password failed: ${reset.body}`);
  const login = await logIn(ctx, client, email);
  if (login.statusCode !== 200) throw new Error(`operator login failed: ${login.body}`);
  await enrolTotp(client, email);
  return client;
}

/** A multipart/form-data body with one file part, as a browser's FormData would send it. */
export function multipartFile(filename: string, content: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----ansim${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function upload(client: TestClient, filename: string, content: Buffer, contentType?: string) {
  const { payload, headers } = multipartFile(filename, content, contentType);
  return client.request({ method: 'POST', url: '/api/v1/file/', payload, headers });
}

/** A tiny valid JPEG carrying an EXIF APP1 segment with GPS data and a comment holding `sentinel`. */
export function jpegWithGps(sentinel: string): Buffer {
  const exifPayload = Buffer.concat([
    Buffer.from('Exif\0\0MM\0*\0\0\0\x08GPSLatitude 37.5665 N ', 'latin1'),
    Buffer.from(sentinel),
  ]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), u16(exifPayload.length + 2), exifPayload]);
  const comment = Buffer.from(`camera owner ${sentinel}`);
  const com = Buffer.concat([Buffer.from([0xff, 0xfe]), u16(comment.length + 2), comment]);
  const jfif = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00,
  ]);
  const scan = Buffer.from([
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0x34, 0x56, 0xff, 0xd9,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, app1, com, scan]);
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

export function reportBody(type: 'anonym' | 'brief' | 'formal', overrides: Record<string, unknown> = {}) {
  return {
    report_type: type,
    reporter_type: 'victim',
    reporter_name: type === 'anonym' ? '' : '김신고',
    reporter_department: type === 'anonym' ? '' : '영업팀',
    perpetrator_name: '박행위',
    perpetrator_role: '팀장',
    relationship: '상급자',
    acts: [
      {
        date: '2026-10-01',
        location: '3층 회의실',
        description: '회의 중 반복적인 고성과 모욕',
        evidences: null,
      },
    ],
    harms: [{ type: 'mental', description: '불면과 불안', evidences: null }],
    wishes: ['investigation', 'separation'],
    concerns:
      type === 'anonym' ? [{ concern: '신원이 알려질까 걱정됩니다', companyRequest: '익명 보장' }] : [],
    witnesses:
      type === 'anonym'
        ? []
        : [
            {
              name: '이목격',
              department: '영업팀',
              position: '대리',
              email: 'witness@a.example',
              email_sent_at: null,
            },
          ],
    protection_requests: type === 'formal' ? ['separation', 'paid_leave'] : [],
    perpetrator_email: 'accused@a.example',
    last_edit: new Date().toISOString(),
    ...overrides,
  };
}

/** The token of the newest invitation link mailed to `email`. */
export async function invitationTokenFor(
  ctx: TestContext,
  email: string,
  kind: 'defendant' | 'reference',
): Promise<string> {
  const mail = await latestMail(ctx.database, email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return tokenFromMail(mail.text, `/${kind}`);
}

/** An invitee's browser: no account, only the link's token, sent as the header the web client uses. */
export function inviteeClient(ctx: TestContext, token: string, ip?: string): TestClient {
  return new TestClient(ctx.app, ip, { 'X-Invitation-Token': token });
}

/**
 * An anonymous draft as the web client starts one for a logged-in member (decision 0005): a browser that
 * sends the draft's intake token on its uploads and its submission. With `withAccountCookies` it also carries
 * the member's account cookie, as a real browser would, which must change nothing.
 */
export async function anonymousDraft(
  ctx: TestContext,
  member: TestClient,
  options: { withAccountCookies?: boolean } = {},
): Promise<TestClient> {
  const response = await member.post('/api/v1/intake/', {});
  if (response.statusCode !== 201) throw new Error(`intake failed: ${response.body}`);
  const draft = new TestClient(ctx.app, member.ip, { 'X-Intake-Token': response.json().token });
  if (options.withAccountCookies) for (const [name, value] of member.cookies) draft.cookies.set(name, value);
  return draft;
}
