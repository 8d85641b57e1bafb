import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { recordAudit } from './domain/audit/record-audit.ts';
import {
  AdminCommandError,
  addCompanyDomain,
  createCompany,
  listCompanies,
  setUserRole,
} from './domain/companies/admin.ts';
import { eraseCompanyKeys, rotateCompanyKey, upgradeEncryption } from './domain/companies/company-keys.ts';
import {
  ACK_DAYS_RANGE,
  FEEDBACK_DAYS_RANGE,
  setCompanyDeadlines,
} from './domain/companies/set-company-deadlines.ts';
import { backfillStatsDimensions, rebuildStats } from './domain/manager/stats.ts';
import { createOperator } from './domain/operator/create-operator.ts';
import { setCompanyRetention } from './domain/reports/retention.ts';
import { attachKeyring, resolveMasterKey } from './encryption/keyring.ts';
import { AppError } from './lib/app-error.ts';
import { DataDirInUseError, lockDataDir } from './lib/data-dir-lock.ts';
import { createFileStore } from './storage/create-file-store.ts';
import { createEncryptingFileStore } from './storage/encrypting-file-store.ts';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  company:create --name <name> --domain <domain> [--join-code <code>]
      Creates a company; prints its id and join code (generated when not given).
  company:list
      Lists companies with their domains, join code and member/manager counts.
  company:add-domain --company <id> --domain <domain>
      Adds a verified e-mail domain to a company.
  user:set-role --email <email> --role member|investigator|manager|admin
      Makes a user a manager or a member of their company.
  company:rotate-key --company <id>
      Gives the company a new data key, re-encrypts its reports, statements, messages, notes and files
      under it, and deletes the old key. Safe while the server runs.
  company:erase-key --company <id> --confirm <company id again>
      Crypto-erase: deletes the company's data keys, so its stored contents and files (backups too) can never
      be read again. Cannot be undone.
  encryption:upgrade
      Rewrites every value and file still in plaintext or in encryption format v1 into format v2 (bound to
      its row), company by company. Prints what it rewrote; running it again finds nothing left. Safe while
      the server runs.
  operator:create --email <email> [--name <name>]
      Creates the platform's operator (no company) and mails a link to set the password. Run again to mail a
      new link. The running server's mail worker delivers it.
  company:set-retention --company <id> --days <30-3650> --by <who asked>
      How long closed and dismissed cases are kept after closure before the daily job deletes them.
  company:set-deadlines --company <id> --ack-days <1-30> --feedback-days <7-180>
      The company's deadlines for cases received from now on: acknowledge within N days, give the reporter
      feedback (an outcome or a note marked as feedback) within N days. Recorded in the company's audit log.
  stats:rebuild [--company <id>]
      Recomputes the statistics tables (report_stat_counts, report_stat_durations) from the reports, for one
      company or all. First fills the accused person's department and the relationship of reports that
      have neither (those submitted before migration 0011) from their sealed forms. Writes to reports wait
      while the recount runs.

The command reads the same configuration as the server (DATABASE_URL, DATA_DIR, ...). On the embedded
database it needs the data directory to itself: stop the server first, or use PostgreSQL.`;

type Options = Record<string, { type: 'string' }>;

interface Command {
  options: Options;
  required: string[];
  run(database: Database, values: Record<string, string | undefined>, config: Config): Promise<string>;
}

const commands: Record<string, Command> = {
  'company:create': {
    options: { name: { type: 'string' }, domain: { type: 'string' }, 'join-code': { type: 'string' } },
    required: ['name', 'domain'],
    async run(database, values) {
      const company = await createCompany(
        database,
        { name: values.name!, domain: values.domain!, joinCode: values['join-code'] },
        // In the operator's audit like a company the console creates, with its domains (no logged-in actor).
        (tx, created) =>
          recordAudit(tx, {
            companyId: created.id,
            actorId: null,
            action: 'company.create',
            targetType: 'company',
            targetId: created.id,
            detail: { name: created.name, domains: [values.domain!.trim().toLowerCase()], via: 'cli' },
          }),
      );
      return [
        `Created company ${company.name}`,
        `  id:        ${company.id}`,
        `  domain:    ${company.domain}`,
        `  join code: ${company.joinCode}`,
        ...(company.attachedUsers
          ? [`  ${company.attachedUsers} confirmed user(s) on the domain joined it.`]
          : []),
      ].join('\n');
    },
  },
  'company:list': {
    options: {},
    required: [],
    async run(database) {
      const list = await listCompanies(database);
      if (list.length === 0) return 'No companies yet. Create one with company:create.';
      return list
        .map((company) =>
          [
            `${company.name}`,
            `  id:        ${company.id}`,
            `  domains:   ${company.domains.join(', ') || '(none)'}`,
            `  join code: ${company.joinCode ?? '(none)'}`,
            `  members:   ${company.members}, managers: ${company.managers}`,
          ].join('\n'),
        )
        .join('\n\n');
    },
  },
  'company:add-domain': {
    options: { company: { type: 'string' }, domain: { type: 'string' } },
    required: ['company', 'domain'],
    async run(database, values) {
      const added = await addCompanyDomain(database, { companyId: values.company!, domain: values.domain! });
      return [
        `Added ${added.domain} to ${added.companyName} (${added.companyId}).`,
        ...(added.attachedUsers ? [`${added.attachedUsers} confirmed user(s) on the domain joined it.`] : []),
      ].join('\n');
    },
  },
  'user:set-role': {
    options: { email: { type: 'string' }, role: { type: 'string' } },
    required: ['email', 'role'],
    async run(database, values, config) {
      // A new handler is kept away from cases naming them: the blind index of their name needs the keyring.
      attachKeyring(database, resolveMasterKey(config));
      const changed = await setUserRole(database, { email: values.email!, role: values.role! });
      return changed.previousRole === changed.role
        ? `${changed.email} is already a ${changed.role} of ${changed.companyName ?? 'no company'}.`
        : `${changed.email} is now a ${changed.role} of ${changed.companyName ?? 'no company'} (was ${changed.previousRole}).`;
    },
  },
  'company:rotate-key': {
    options: { company: { type: 'string' } },
    required: ['company'],
    async run(database, values, config) {
      const keyring = attachKeyring(database, resolveMasterKey(config));
      const fileStore = createEncryptingFileStore(createFileStore(config), keyring);
      const rotated = await rotateCompanyKey({ database, fileStore }, values.company!);
      return [
        `Rotated the data key of ${rotated.companyName}: now ${rotated.newKeyId}.`,
        `  re-encrypted: ${rotated.values} value(s), ${rotated.files} file(s); deleted ${rotated.retiredKeys} old key(s).`,
        ...(rotated.unreadable
          ? [`  ${rotated.unreadable} file(s) were already unreadable (erased key).`]
          : []),
      ].join('\n');
    },
  },
  'company:erase-key': {
    options: { company: { type: 'string' }, confirm: { type: 'string' } },
    required: ['company', 'confirm'],
    async run(database, values, config) {
      if (values.confirm !== values.company)
        throw new AdminCommandError('--confirm must repeat the company id: erasing cannot be undone.');
      attachKeyring(database, resolveMasterKey(config));
      const erased = await eraseCompanyKeys(database, values.company!);
      return `Erased ${erased.erasedKeys} data key(s) of ${erased.companyName}: its stored contents can no longer be read.`;
    },
  },
  'encryption:upgrade': {
    options: {},
    required: [],
    async run(database, _values, config) {
      const keyring = attachKeyring(database, resolveMasterKey(config));
      const fileStore = createEncryptingFileStore(createFileStore(config), keyring);
      const { scopes } = await upgradeEncryption({ database, fileStore });
      const total = scopes.reduce(
        (sum, scope) => ({ values: sum.values + scope.values, files: sum.files + scope.files }),
        { values: 0, files: 0 },
      );
      return [
        ...scopes.map(
          (scope) =>
            `${scope.name}: ${scope.values} value(s), ${scope.files} file(s) rewritten to format v2` +
            (scope.unreadable ? `; ${scope.unreadable} file(s) unreadable (erased key)` : ''),
        ),
        `Upgraded ${total.values} value(s) and ${total.files} file(s) in all.`,
      ].join('\n');
    },
  },
  'operator:create': {
    options: { email: { type: 'string' }, name: { type: 'string' } },
    required: ['email'],
    async run(database, values, config) {
      // The mail is sealed with the platform key before it is queued.
      attachKeyring(database, resolveMasterKey(config));
      const operator = await createOperator(
        { database, config },
        { email: values.email!, name: values.name },
      );
      return [
        operator.created
          ? `Created the operator ${operator.email}.`
          : `${operator.email} is already an operator.`,
        `Sent a set-password link to ${operator.email} (valid 1 hour; queued in the mail outbox, delivered by the server).`,
        'After setting the password, log in and enrol a second factor to open /operator.',
      ].join('\n');
    },
  },
  'company:set-retention': {
    options: { company: { type: 'string' }, days: { type: 'string' }, by: { type: 'string' } },
    required: ['company', 'days', 'by'],
    async run(database, values) {
      const set = await setCompanyRetention(database, {
        companyId: values.company!,
        days: values.days!,
        setBy: values.by!,
      });
      return `${set.companyName} now keeps closed cases ${set.days} days after closure (was ${set.previousDays}).`;
    },
  },
  'company:set-deadlines': {
    options: {
      company: { type: 'string' },
      'ack-days': { type: 'string' },
      'feedback-days': { type: 'string' },
    },
    required: ['company', 'ack-days', 'feedback-days'],
    async run(database, values) {
      const ackDays = Number(values['ack-days']);
      const feedbackDays = Number(values['feedback-days']);
      try {
        const set = await setCompanyDeadlines(database, {
          companyId: values.company!,
          ackDays,
          feedbackDays,
          by: null,
        });
        return `${set.companyName}: acknowledge within ${ackDays} days, feedback within ${feedbackDays} days for new cases (was ${set.previous.ackDays} and ${set.previous.feedbackDays}).`;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new AdminCommandError(
          error.code === 'NOT_FOUND'
            ? `No company with id ${values.company}. See company:list.`
            : `Deadlines are whole days: --ack-days ${ACK_DAYS_RANGE.min}-${ACK_DAYS_RANGE.max}, --feedback-days ${FEEDBACK_DAYS_RANGE.min}-${FEEDBACK_DAYS_RANGE.max}, and feedback no shorter than acknowledgement.`,
        );
      }
    },
  },
  'stats:rebuild': {
    options: { company: { type: 'string' } },
    required: [],
    async run(database, values, config) {
      const companyId = values.company ?? null;
      attachKeyring(database, resolveMasterKey(config));
      const filled = await backfillStatsDimensions(database, companyId);
      const backfilled = filled.updated
        ? `Filled the department and relationship of ${filled.updated} older report(s). `
        : '';
      await rebuildStats(database, companyId);
      const [row] = await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM reports WHERE $1::uuid IS NULL OR company_id = $1',
        [companyId],
      );
      return `${backfilled}Rebuilt the statistics of ${companyId ?? 'every company'} from ${row?.n ?? 0} report(s).`;
    },
  },
};

export class UsageError extends Error {}

/**
 * Parses and runs one command on an open database, returning what it prints. The entry point below adds the
 * configuration, the data directory's lock and the database; tests call this on their own database.
 */
export async function runCommand(database: Database, argv: string[], config: Config): Promise<string> {
  const { command, values } = parseCommand(argv);
  return command.run(database, values, config);
}

function parseCommand(argv: string[]): { command: Command; values: Record<string, string | undefined> } {
  const [name, ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') throw new UsageError('');
  if (!name) throw new UsageError('No command given.');
  const command = commands[name];
  if (!command) throw new UsageError(`Unknown command: ${name}`);
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message}`);
  }
  const missing = command.required.filter((option) => !values[option]?.trim());
  if (missing.length)
    throw new UsageError(`${name} needs ${missing.map((option) => `--${option}`).join(', ')}`);
  return { command, values };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(error.message);
    console.error(USAGE);
    return error.message ? 1 : 0;
  }
  const config = loadConfig();
  // PGlite has no lock of its own: a CLI writing beside a running server would corrupt the embedded database.
  const releaseLock = config.DATABASE_URL ? () => {} : lockDataDir(config.dataDir);
  try {
    const database = await openDatabase(
      config.DATABASE_URL
        ? { kind: 'postgres', url: config.DATABASE_URL, max: 1 }
        : { kind: 'pglite', dataDir: `${config.dataDir}/db` },
    );
    try {
      console.info(await parsed.command.run(database, parsed.values, config));
    } finally {
      await database.close();
    }
  } finally {
    releaseLock();
  }
  return 0;
}

// Run only as the program itself (`npm run admin`), not when a test imports runCommand.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (
        error instanceof AdminCommandError ||
        error instanceof ConfigError ||
        error instanceof DataDirInUseError
      ) {
        console.error(error.message);
      } else {
        console.error('The command failed:', error);
      }
      process.exit(1);
    },
  );
