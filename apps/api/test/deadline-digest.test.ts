import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports, users } from '../src/db/schema.ts';
import { DIGEST_TEMPLATE, sendDeadlineDigests } from '../src/domain/manager/deadline-digest.ts';
import { anonymousDraft, createCompany, createHandler, reportBody } from './fixtures.ts';
import { createTestApp, mailsTo, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let manager: { client: TestClient; id: string };
let investigator: { client: TestClient; id: string };
let named: { id: string; caseNumber: string };
let anonymous: { id: string; caseNumber: string };

const DAY = 86_400_000;
/** A fixed moment (noon in Korea) the job runs at; due dates are set relative to it. */
const NOW = new Date('2026-11-23T03:00:00Z');

const digests = async (email: string) =>
  (await mailsTo(ctx.database, email)).filter((mail) => mail.template === DIGEST_TEMPLATE);

beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '에이 주식회사', 'a.example');
  manager = await createHandler(ctx, 'manager@a.example', 'manager', { name: '최담당' });
  investigator = await createHandler(ctx, 'investigator@a.example', 'investigator', { name: '이조사' });
  await createHandler(ctx, 'idle@a.example', 'investigator', { name: '정조사' });
  // Named like the accused person of both cases: excluded from them at submission.
  await createHandler(ctx, 'accused-manager@a.example', 'manager', { name: '박행위' });
  const reporter = await registerAndLogin(ctx, 'reporter@a.example', { name: '김신고' });
  const namedId = (await reporter.post('/api/v1/report/', reportBody('brief'))).json().id;
  const draft = await anonymousDraft(ctx, reporter);
  const anonymousId = (await draft.post('/api/v1/report/', reportBody('anonym'))).json().id;
  const numberOf = async (id: string) =>
    (await ctx.database.db.select().from(reports).where(eq(reports.id, id)))[0]!.caseNumber;
  named = { id: namedId, caseNumber: await numberOf(namedId) };
  anonymous = { id: anonymousId, caseNumber: await numberOf(anonymousId) };
  await ctx.database.db
    .update(reports)
    .set({ ackDueAt: new Date(NOW.getTime() - DAY), feedbackDueAt: new Date(NOW.getTime() + 3 * DAY) })
    .where(eq(reports.id, named.id));
  await ctx.database.db
    .update(reports)
    .set({ ackDueAt: new Date(NOW.getTime() + 2 * DAY), feedbackDueAt: new Date(NOW.getTime() + 80 * DAY) })
    .where(eq(reports.id, anonymous.id));
  const assigned = await manager.client.request({
    method: 'PUT',
    url: `/api/v1/manager/report/${named.id}/assignees`,
    json: { user_ids: [investigator.id] },
  });
  expect(assigned.statusCode).toBe(200);
});
afterAll(() => ctx.close());

describe('daily deadline digest', () => {
  it('mails each handler the case numbers and dates of what they may see, and nothing else', async () => {
    expect(await sendDeadlineDigests(ctx.database, ctx.config, NOW)).toBe(2);

    const [toManager] = await digests('manager@a.example');
    expect(toManager).toBeDefined();
    expect(toManager!.subject).toContain('기한 지남 1건, 7일 안에 돌아오는 기한 2건');
    expect(toManager!.text).toContain(`사건 ${named.caseNumber} · 접수 확인 기한 2026-11-22 (기한 지남)`);
    expect(toManager!.text).toContain(`사건 ${named.caseNumber} · 결과 통지 기한 2026-11-26`);
    expect(toManager!.text).toContain(`사건 ${anonymous.caseNumber} · 접수 확인 기한 2026-11-25`);
    // Not in the horizon: the anonymous case's feedback in 80 days.
    expect(toManager!.text).not.toContain(`사건 ${anonymous.caseNumber} · 결과 통지`);

    const [toInvestigator] = await digests('investigator@a.example');
    expect(toInvestigator!.text).toContain(named.caseNumber);
    expect(toInvestigator!.text).not.toContain(anonymous.caseNumber);

    // No names, no content, no report type (an anonymous case is not singled out).
    for (const mail of [toManager!, toInvestigator!])
      for (const leak of ['김신고', '박행위', '고성', '모욕', '익명', '약식', '팀장', 'anonym', 'brief'])
        expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(leak);

    // Nothing assigned, or excluded from every case: no mail at all.
    expect(await digests('idle@a.example')).toEqual([]);
    expect(await digests('accused-manager@a.example')).toEqual([]);
  });

  it('sends once a day per handler, and again the next Korean day', async () => {
    expect(await sendDeadlineDigests(ctx.database, ctx.config, new Date(NOW.getTime() + 3_600_000))).toBe(0);
    expect(await digests('manager@a.example')).toHaveLength(1);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, manager.id));
    expect(row!.digestSentAt?.toISOString()).toBe(NOW.toISOString());

    // A case met its deadlines meanwhile: it drops out of tomorrow's digest.
    await ctx.database.db
      .update(reports)
      .set({ acknowledgedAt: NOW, feedbackAt: NOW })
      .where(eq(reports.id, named.id));
    const tomorrow = new Date(NOW.getTime() + DAY);
    expect(await sendDeadlineDigests(ctx.database, ctx.config, tomorrow)).toBe(1);
    const sent = await digests('manager@a.example');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.text).not.toContain(named.caseNumber);
    expect(sent[1]!.text).toContain(anonymous.caseNumber);
    expect(await digests('investigator@a.example')).toHaveLength(1);
  });
});
