import { CASE_REFERENCE_PATTERN } from '@ansim/shared/case-reference';
import { reportFormSchema } from '@ansim/shared/report-form';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import {
  auditEvents,
  caseExclusions,
  companies,
  mailOutbox,
  protectiveMeasures,
  reportStatusHistory,
  reports,
  users,
} from '../src/db/schema.ts';
import {
  insertReportStatement,
  numberReportStatement,
  submitReport,
} from '../src/domain/reports/submit-report.ts';
import type { SessionUser } from '../src/domain/sessions/sessions.ts';
import { openText } from '../src/encryption/codec.ts';
import { type MailLogger, type MailTransport, startMailWorker } from '../src/mail/worker.ts';
import { reportBody } from './fixtures.ts';
import { countQueries, createTestDatabase, OUTBOX_CLAIM, TEST_DB, testConfig } from './helpers.ts';

// Decision 0024: a submission is two statements built once (the report with its status, measures and the
// company's handlers; the case number with who is told), in place of seven built on every call. These tests
// hold it to the rows the seven wrote, and to a case number that stays unique under concurrent submissions.

let database: Database;
const config = testConfig();
const silentLogger = { info: () => {}, warn: () => {}, error: () => {} } as unknown as MailLogger;
let reporter: SessionUser;
let companyId: string;
const ids: Record<'manager' | 'accused' | 'investigator', string> = {
  manager: '',
  accused: '',
  investigator: '',
};
const form = reportFormSchema.parse(
  reportBody('formal', {
    perpetrator_name: '박 행위',
    protection_requests: ['separation', 'other'],
    protection_etc: '재택 근무를 원합니다',
  }),
);

beforeAll(async () => {
  database = await createTestDatabase();
  const [company] = await database.db
    .insert(companies)
    .values({ name: '문장 주식회사', joinCode: 'KEPT-SUBMIT', ackDeadlineDays: 5, feedbackDeadlineDays: 30 })
    .returning({ id: companies.id });
  companyId = company!.id;
  const people = await database.db
    .insert(users)
    .values([
      { email: 'member@kept.example', passwordHash: 'x', name: '김신고', companyId, role: 'member' },
      { email: 'manager@kept.example', passwordHash: 'x', name: '최담당', companyId, role: 'manager' },
      { email: 'second@kept.example', passwordHash: 'x', name: '정담당', companyId, role: 'admin' },
      // Named like the accused person: excluded from the case, never told of it.
      { email: 'park@kept.example', passwordHash: 'x', name: '박행위', companyId, role: 'admin' },
      // Not assigned to a new case: not told of it either.
      { email: 'inv@kept.example', passwordHash: 'x', name: '이조사', companyId, role: 'investigator' },
    ])
    .returning({ id: users.id, email: users.email });
  const byEmail = (email: string) => people.find((person) => person.email === email)!.id;
  reporter = {
    id: byEmail('member@kept.example'),
    email: 'member@kept.example',
    name: '김신고',
    role: 'member',
    companyId,
  };
  ids.manager = byEmail('manager@kept.example');
  ids.accused = byEmail('park@kept.example');
  ids.investigator = byEmail('inv@kept.example');
});
afterAll(() => database.close());

/** A company with one member and no case handler: nobody is told of its cases. */
async function memberOfCompanyWithoutHandlers(
  name: string,
  joinCode: string,
  email: string,
): Promise<SessionUser> {
  const [company] = await database.db
    .insert(companies)
    .values({ name, joinCode })
    .returning({ id: companies.id });
  const [member] = await database.db
    .insert(users)
    .values({ email, passwordHash: 'x', name: '홀로', companyId: company!.id, role: 'member' })
    .returning({ id: users.id });
  return { id: member!.id, email, name: '홀로', role: 'member', companyId: company!.id };
}

describe('a submission in two statements built once (decision 0024)', () => {
  it('gives concurrent submissions of one company distinct random references', async () => {
    const submitted = await Promise.all(
      Array.from({ length: 12 }, () =>
        submitReport({ database, config }, { kind: 'account', user: reporter }, form),
      ),
    );
    const rows = await database.db
      .select({ caseNumber: reports.caseNumber })
      .from(reports)
      .where(
        inArray(
          reports.id,
          submitted.map((report) => report.id),
        ),
      );
    const year = new Date().getFullYear();
    expect(new Set(rows.map((row) => row.caseNumber)).size).toBe(12);
    for (const { caseNumber } of rows) {
      expect(caseNumber).toMatch(CASE_REFERENCE_PATTERN);
      expect(caseNumber.startsWith(`${year}-`)).toBe(true);
    }
  });

  it('writes the rows it wrote before: report, first status, measures, exclusion with its audit, a notice to each handler', async () => {
    const { id, created } = await submitReport(
      { database, config },
      { kind: 'account', user: reporter },
      form,
      { idempotencyKey: 'kept-statements-1' },
    );
    expect(created).toBe(true);
    const [report] = await database.db.select().from(reports).where(eq(reports.id, id));
    expect(report).toMatchObject({
      companyId,
      reporterId: reporter.id,
      reportType: 'formal',
      status: 'received',
    });
    expect(report!.caseNumber).toMatch(CASE_REFERENCE_PATTERN);
    const days = (date: Date) => (date.getTime() - report!.createdAt.getTime()) / 86_400_000;
    expect(days(report!.ackDueAt)).toBeCloseTo(5, 2);
    expect(days(report!.feedbackDueAt)).toBeCloseTo(30, 2);
    expect(JSON.parse(await openText(database, 'reports.form', id, report!.form as string))).toMatchObject({
      perpetrator_name: '박 행위',
      acts: form.acts,
    });
    expect(await openText(database, 'reports.accused_name', id, report!.accusedName)).toBe('박 행위');
    expect(report!.accusedNameIndex).toBeTruthy();

    const history = await database.db
      .select()
      .from(reportStatusHistory)
      .where(eq(reportStatusHistory.reportId, id));
    expect(history.map((row) => [row.actorId, row.fromStatus, row.toStatus])).toEqual([
      [null, null, 'received'],
    ]);

    const measures = await database.db
      .select()
      .from(protectiveMeasures)
      .where(eq(protectiveMeasures.reportId, id));
    const opened = await Promise.all(
      measures.map(async (row) => [
        row.measure,
        row.requestedByReporter,
        await openText(database, 'protective_measures.detail', row.id, row.detail),
      ]),
    );
    expect(opened.sort()).toEqual([
      ['other', true, '재택 근무를 원합니다'],
      ['separation', true, ''],
    ]);

    const exclusions = await database.db.select().from(caseExclusions).where(eq(caseExclusions.reportId, id));
    expect(exclusions.map((row) => [row.userId, row.reason])).toEqual([[ids.accused, 'accused_name']]);
    const audits = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'case.exclusion')));
    expect(audits).toHaveLength(1);

    const mails = await database.db.select().from(mailOutbox);
    const notices: string[][] = [];
    for (const mail of mails) {
      const subject = await openText(database, 'mail_outbox.subject', mail.id, mail.subject);
      if (subject.includes(report!.caseNumber))
        notices.push([mail.template, await openText(database, 'mail_outbox.to', mail.id, mail.to)]);
    }
    expect(notices.sort()).toEqual([
      ['new_case', 'manager@kept.example'],
      ['new_case', 'second@kept.example'],
    ]);

    // The same key again: the same report, and nothing more written.
    const again = await submitReport({ database, config }, { kind: 'account', user: reporter }, form, {
      idempotencyKey: 'kept-statements-1',
    });
    expect(again).toEqual({ id, created: false });
    const history2 = await database.db
      .select()
      .from(reportStatusHistory)
      .where(eq(reportStatusHistory.reportId, id));
    expect(history2).toHaveLength(1);
  });

  it('wakes the mail worker when it told someone of the case, and not when there was no one to tell', async () => {
    const { count: claims, restore } = countQueries(database, OUTBOX_CLAIM);
    const delivered: string[] = [];
    const transport: MailTransport = {
      deliver: async (mail) => {
        delivered.push(mail.to);
      },
      close: () => {},
    };
    const worker = startMailWorker({ database, config, logger: silentLogger, transport, poll: false });
    try {
      const user = await memberOfCompanyWithoutHandlers(
        '알릴 사람 없는 회사',
        'KEPT-NOBODY',
        'nobody@kept.example',
      );
      // Nobody to tell: the worker is not woken, and does not look at the outbox.
      await submitReport({ database, config }, { kind: 'account', user }, form);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(claims()).toBe(0);

      // The company's manager and admin are told, without waiting for a poll (this worker never polls).
      await submitReport({ database, config }, { kind: 'account', user: reporter }, form);
      await vi.waitFor(
        () =>
          expect(delivered).toEqual(expect.arrayContaining(['manager@kept.example', 'second@kept.example'])),
        { timeout: 30_000 },
      );
      expect(delivered).not.toContain('park@kept.example');
    } finally {
      restore();
      await worker.stop();
    }
  });

  // bench/scenarios.ts rawSubmit sends these statements, in this order, as the database's ceiling.
  it.skipIf(TEST_DB !== 'postgres')(
    'sends BEGIN, the two statements, and COMMIT, in a company with no handler',
    async () => {
      const user = await memberOfCompanyWithoutHandlers(
        '담당자 없는 회사',
        'KEPT-EMPTY',
        'alone@kept.example',
      );
      // Warm the keys (their lookups are not part of the submission's transaction).
      await submitReport({ database, config }, { kind: 'account', user }, form);
      const sent: string[] = [];
      const original = pg.Client.prototype.query;
      const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const query = args[0] as string | { text: string };
        sent.push(typeof query === 'string' ? query : query.text);
        return original.apply(this, args as never);
      } as never);
      try {
        await submitReport({ database, config }, { kind: 'account', user }, form);
      } finally {
        spy.mockRestore();
      }
      const anyValues = new Proxy({}, { has: () => true, get: () => null });
      const text = (statement: { toSQL(): { sql: string } }) => statement.toSQL().sql;
      expect(sent).toEqual([
        'begin',
        text(insertReportStatement(database.db, anyValues)),
        text(numberReportStatement(database.db, anyValues)),
        'commit',
      ]);
    },
  );
});
