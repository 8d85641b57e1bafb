import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, UsageError } from '../src/cli.ts';
import type { Database } from '../src/db/client.ts';
import { companies, companyDomains, users } from '../src/db/schema.ts';
import {
  AdminCommandError,
  addCompanyDomain,
  createCompany,
  generateJoinCode,
  listCompanies,
  setUserRole,
} from '../src/domain/companies/admin.ts';
import { lockDataDir } from '../src/lib/data-dir-lock.ts';
import { createTestDatabase, TEST_DB, testConfig } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

async function addUser(email: string, options: { companyId?: string; confirmed?: boolean } = {}) {
  const [user] = await database.db
    .insert(users)
    .values({
      email,
      passwordHash: 'unused',
      name: '사용자',
      companyId: options.companyId ?? null,
      emailConfirmedAt: options.confirmed === false ? null : new Date(),
    })
    .returning();
  return user!;
}

describe('company administration', () => {
  it('creates a company with a normalized domain and the given or a generated join code', async () => {
    const given = await createCompany(database, {
      name: ' 한빛 상사 ',
      domain: ' @HanBit.Example ',
      joinCode: 'HANBIT-2026',
    });
    expect(given).toMatchObject({ name: '한빛 상사', domain: 'hanbit.example', joinCode: 'HANBIT-2026' });
    const [row] = await database.db.select().from(companies).where(eq(companies.id, given.id));
    expect(row).toMatchObject({ name: '한빛 상사', joinCode: 'HANBIT-2026' });
    const domains = await database.db
      .select()
      .from(companyDomains)
      .where(eq(companyDomains.companyId, given.id));
    expect(domains.map((d) => d.domain)).toEqual(['hanbit.example']);

    const generated = await createCompany(database, { name: '누리 테크', domain: 'nuri.example' });
    expect(generated.joinCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(generateJoinCode()).not.toBe(generateJoinCode());
  });

  it('refuses a taken domain or join code and bad input, changing nothing', async () => {
    const before = await listCompanies(database);
    await expect(createCompany(database, { name: '다른 회사', domain: 'HANBIT.example' })).rejects.toThrow(
      /hanbit\.example already belongs to 한빛 상사/,
    );
    await expect(
      createCompany(database, { name: '다른 회사', domain: 'other.example', joinCode: 'HANBIT-2026' }),
    ).rejects.toThrow(AdminCommandError);
    await expect(createCompany(database, { name: '다른 회사', domain: 'not a domain' })).rejects.toThrow(
      /not an e-mail domain/,
    );
    await expect(createCompany(database, { name: '  ', domain: 'blank.example' })).rejects.toThrow(
      AdminCommandError,
    );
    await expect(
      createCompany(database, { name: '다른 회사', domain: 'x.example', joinCode: 'a b' }),
    ).rejects.toThrow(/join code/);
    expect(await listCompanies(database)).toEqual(before);
  });

  it('lists companies with domains, join code and member and manager counts', async () => {
    const [hanbit] = (await listCompanies(database)).filter((c) => c.name === '한빛 상사');
    await addUser('staff1@hanbit.example', { companyId: hanbit!.id });
    await addUser('staff2@hanbit.example', { companyId: hanbit!.id });
    const boss = await addUser('boss@hanbit.example', { companyId: hanbit!.id });
    await database.db.update(users).set({ role: 'manager' }).where(eq(users.id, boss.id));

    const list = await listCompanies(database);
    expect(list.map((c) => c.name)).toEqual(['한빛 상사', '누리 테크']);
    expect(list[0]).toEqual({
      id: hanbit!.id,
      name: '한빛 상사',
      domains: ['hanbit.example'],
      joinCode: 'HANBIT-2026',
      members: 2,
      managers: 1,
    });
    expect(list[1]).toMatchObject({ domains: ['nuri.example'], members: 0, managers: 0 });
  });

  it('adds a domain and brings the confirmed users already on it into the company', async () => {
    const [, nuri] = await listCompanies(database);
    const waiting = await addUser('early@nuri.co.kr');
    const unconfirmed = await addUser('late@nuri.co.kr', { confirmed: false });

    const added = await addCompanyDomain(database, { companyId: nuri!.id, domain: 'NURI.co.kr' });
    expect(added).toEqual({
      companyId: nuri!.id,
      companyName: '누리 테크',
      domain: 'nuri.co.kr',
      attachedUsers: 1,
    });
    const [after] = await listCompanies(database).then((list) => list.filter((c) => c.id === nuri!.id));
    expect(after!.domains).toEqual(['nuri.co.kr', 'nuri.example']);
    const byId = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;
    expect((await byId(waiting.id)).companyId).toBe(nuri!.id);
    expect((await byId(unconfirmed.id)).companyId).toBeNull();

    await expect(addCompanyDomain(database, { companyId: nuri!.id, domain: 'nuri.co.kr' })).rejects.toThrow(
      /nuri\.co\.kr already belongs to 누리 테크/,
    );
    await expect(
      addCompanyDomain(database, { companyId: nuri!.id, domain: 'hanbit.example' }),
    ).rejects.toThrow(/already belongs to 한빛 상사/);
    await expect(
      addCompanyDomain(database, {
        companyId: '00000000-0000-4000-8000-000000000000',
        domain: 'new.example',
      }),
    ).rejects.toThrow(/No company has the id/);
    await expect(addCompanyDomain(database, { companyId: 'nuri', domain: 'new.example' })).rejects.toThrow(
      /No company has the id nuri/,
    );
  });

  it('sets a role by case-insensitive e-mail and refuses unknown users, bad roles and managers without company', async () => {
    expect(await setUserRole(database, { email: 'STAFF1@hanbit.example', role: 'manager' })).toEqual({
      email: 'staff1@hanbit.example',
      role: 'manager',
      previousRole: 'member',
      companyName: '한빛 상사',
    });
    const [staff] = await database.db.select().from(users).where(eq(users.email, 'staff1@hanbit.example'));
    expect(staff!.role).toBe('manager');
    expect(await setUserRole(database, { email: 'staff1@hanbit.example', role: 'member' })).toMatchObject({
      role: 'member',
      previousRole: 'manager',
    });

    await expect(setUserRole(database, { email: 'nobody@hanbit.example', role: 'manager' })).rejects.toThrow(
      'No user has the e-mail nobody@hanbit.example.',
    );
    // The platform's operator is no company role: it is made with operator:create, never given to an employee.
    await expect(setUserRole(database, { email: 'staff1@hanbit.example', role: 'operator' })).rejects.toThrow(
      /member, investigator, manager, admin/,
    );
    for (const role of ['investigator', 'admin', 'member'])
      expect(await setUserRole(database, { email: 'staff1@hanbit.example', role })).toMatchObject({ role });
    await addUser('loner@gmail.example');
    await expect(setUserRole(database, { email: 'loner@gmail.example', role: 'manager' })).rejects.toThrow(
      /belongs to no company/,
    );
  });
});

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], dataDir: string): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli.ts', ...args], {
    cwd: repoRoot,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

// A spawned CLI boots tsx and opens (the first time, creates) an embedded database on disk: seconds on a quiet
// machine, far more beside other CPU-heavy work.
const SPAWN_TIMEOUT_MS = 180_000;

// The spawned CLI opens the embedded database in its own DATA_DIR; running it again on PostgreSQL adds nothing.
describe.skipIf(TEST_DB !== 'pglite')('npm run admin (spawned, embedded database)', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-cli-'));
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'creates and lists companies, exiting 0',
    async () => {
      const created = await runCli(
        ['company:create', '--name', '데모 상사', '--domain', 'Sangsa.Example'],
        dataDir,
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const id = /id:\s+([0-9a-f-]{36})/.exec(created.stdout)?.[1];
      const joinCode = /join code:\s+(\S+)/.exec(created.stdout)?.[1];
      expect(id).toBeDefined();
      expect(joinCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

      const listed = await runCli(['company:list'], dataDir);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('데모 상사');
      expect(listed.stdout).toContain(id!);
      expect(listed.stdout).toContain('sangsa.example');
      expect(listed.stdout).toContain(joinCode!);
      expect(listed.stdout).toMatch(/members:\s+0, managers: 0/);
      expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'exits 1 with a clear line for an unknown e-mail or an unknown command',
    async () => {
      const unknownUser = await runCli(
        ['user:set-role', '--email', 'ghost@sangsa.example', '--role', 'manager'],
        dataDir,
      );
      expect(unknownUser.code).toBe(1);
      expect(unknownUser.stderr.trim()).toBe('No user has the e-mail ghost@sangsa.example.');

      const unknown = await runCli(['company:delete'], dataDir);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('Unknown command: company:delete');
      expect(unknown.stderr).toContain('Usage: npm run admin -- <command>');
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'refuses to open a data directory another process holds',
    async () => {
      const release = lockDataDir(dataDir);
      try {
        const result = await runCli(['company:list'], dataDir);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(
          /is in use by another process .*Stop the server first, or use PostgreSQL/,
        );
      } finally {
        release();
      }
    },
    SPAWN_TIMEOUT_MS,
  );
});

/**
 * The commands themselves, run in process on this file's kind of database (both kinds): the spawned runs above
 * prove the entry point (arguments, exit codes, the data directory's lock) and need not repeat every command.
 */
describe('npm run admin commands', () => {
  let commandDatabase: Database;
  const config = testConfig();

  beforeAll(async () => {
    commandDatabase = await createTestDatabase();
  });

  afterAll(async () => {
    await commandDatabase.close();
  });

  const run = (argv: string[]) => runCommand(commandDatabase, argv, config);

  it('encryption:upgrade seals what was left in plaintext, says how much, and finds nothing the second time', async () => {
    await createCompany(commandDatabase, { name: '데모 상사', domain: 'sangsa.example' });
    await commandDatabase.query(
      `INSERT INTO mail_outbox (template, "to", subject, text, html)
       VALUES ('reset_password', 'old@sangsa.example', '제목', '본문', '<p>본문</p>')`,
    );
    const first = await run(['encryption:upgrade']);
    expect(first).toContain('데모 상사: 0 value(s), 0 file(s) rewritten to format v2');
    expect(first).toContain('(platform): 4 value(s), 0 file(s) rewritten to format v2');
    expect(first).toContain('Upgraded 4 value(s) and 0 file(s) in all.');
    const rows = await commandDatabase.query<{ to: string; text: string }>(
      'SELECT "to", text FROM mail_outbox',
    );
    expect(rows.map((row) => [row.to.slice(0, 5), row.text.slice(0, 5)])).toEqual([['enc2:', 'enc2:']]);
    expect(await run(['encryption:upgrade'])).toContain('Upgraded 0 value(s) and 0 file(s) in all.');
  });

  it('company:set-deadlines sets both deadlines, records them in the audit log, and refuses values out of range', async () => {
    const [{ id: companyId }] = (await commandDatabase.query<{ id: string }>(
      `INSERT INTO companies (name) VALUES ('기한 상사') RETURNING id`,
    )) as [{ id: string }];
    const set = await run([
      'company:set-deadlines',
      '--company',
      companyId,
      '--ack-days',
      '3',
      '--feedback-days',
      '60',
    ]);
    expect(set).toContain('기한 상사: acknowledge within 3 days, feedback within 60 days');
    expect(set).toContain('was 7 and 90');
    await expect(
      run(['company:set-deadlines', '--company', companyId, '--ack-days', '0', '--feedback-days', '200']),
    ).rejects.toThrow(
      new AdminCommandError(
        'Deadlines are whole days: --ack-days 1-30, --feedback-days 7-180, and feedback no shorter than acknowledgement.',
      ),
    );
    const [company] = await commandDatabase.query<{
      ack_deadline_days: number;
      feedback_deadline_days: number;
    }>('SELECT ack_deadline_days, feedback_deadline_days FROM companies WHERE id = $1', [companyId]);
    expect(company).toEqual({ ack_deadline_days: 3, feedback_deadline_days: 60 });
    const audit = await commandDatabase.query<{ action: string; actor_id: string | null; detail: unknown }>(
      'SELECT action, actor_id, detail FROM audit_events WHERE company_id = $1',
      [companyId],
    );
    expect(audit).toEqual([
      {
        action: 'company.settings',
        actor_id: null,
        detail: {
          setting: 'deadlines',
          old: { ack_days: 7, feedback_days: 90 },
          new: { ack_days: 3, feedback_days: 60 },
        },
      },
    ]);
  });

  it('stats:rebuild fills older reports from their forms and recounts the statistics', async () => {
    const company = await createCompany(commandDatabase, { name: '통계 상사', domain: 'rebuild.example' });
    // A report from before migration 0011: its department and relationship only in the form.
    await commandDatabase.query(
      `INSERT INTO reports (company_id, report_type, case_number, form, ack_due_at, feedback_due_at)
       VALUES ($1, 'brief', 'OLD-1', $2::jsonb, now() + interval '7 days', now() + interval '90 days')`,
      [company.id, JSON.stringify({ perpetrator_department: '총무팀', relationship: '동료' })],
    );
    // Counters gone wrong, as a bug or a manual edit might leave them.
    await commandDatabase.query(`UPDATE report_stat_counts SET count = 42 WHERE company_id = $1`, [
      company.id,
    ]);
    const result = await run(['stats:rebuild', '--company', company.id]);
    expect(result).toContain('Filled the department and relationship of 1 older report(s).');
    expect(result).toContain('from 1 report(s)');
    const rows = await commandDatabase.query<{ dimension: string; value: string; count: number }>(
      `SELECT dimension, value, count FROM report_stat_counts WHERE company_id = $1 ORDER BY 1, 2`,
      [company.id],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { dimension: 'total', value: '', count: 1 },
        { dimension: 'department', value: '총무팀', count: 1 },
        { dimension: 'relationship', value: '동료', count: 1 },
      ]),
    );
    expect(rows.every((row) => row.count === 1)).toBe(true);
  });

  it('refuses an unknown command and a missing option before touching the database', async () => {
    await expect(run(['company:delete'])).rejects.toThrow(new UsageError('Unknown command: company:delete'));
    await expect(run(['company:add-domain', '--domain', 'x.example'])).rejects.toThrow(
      new UsageError('company:add-domain needs --company'),
    );
  });
});
