import type { ReportStatus } from '@ansim/shared/constants';
import type { CaseAction } from '@ansim/shared/outcomes';
import type { ProtectionOption } from '@ansim/shared/report-form';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    joinCode: text('join_code'),
    /** The code of the company's public intake link `/c/{code}`: anonymous reports without an account. */
    intakeCode: text('intake_code')
      .notNull()
      // 24 hex digits, 96 random bits: the first 12 of two v4 UUIDs (each fully random before its version digit).
      // The API makes its own (generateIntakeCode, 80 bits); this is for rows inserted without one.
      .default(
        sql`substr(replace(gen_random_uuid()::text, '-', ''), 1, 12) || substr(replace(gen_random_uuid()::text, '-', ''), 1, 12)`,
      ),
    /** The company's own help text shown on its intake page. */
    intakeHelpText: text('intake_help_text').notNull().default(''),
    /** Days to acknowledge a new case, and to give the reporter feedback (defaults: 7 days, 3 months). */
    ackDeadlineDays: integer('ack_deadline_days').notNull().default(7),
    feedbackDeadlineDays: integer('feedback_deadline_days').notNull().default(90),
    /** Days a closed or dismissed case is kept before it is deleted (docs/decisions/0004). */
    retentionDays: integer('retention_days').notNull().default(1095),
    /** Who asked for the retention period in force, and when: kept in every deletion record. */
    retentionSetBy: text('retention_set_by'),
    retentionSetAt: timestamp('retention_set_at', { withTimezone: true }),
    /** The company's own contact line for reporters (whom to call), shown on its intake page and in notices. */
    noticeContact: text('notice_contact').notNull().default(''),
    /** Whether a reporter sees the summary of a recorded outcome, not only the finding (76-3 ⑤ leaves it open). */
    shareOutcomeSummary: boolean('share_outcome_summary').notNull().default(true),
    /** Set by the operator: the company's users cannot log in; its data stays. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('companies_join_code_key').on(t.joinCode),
    uniqueIndex('companies_intake_code_key').on(t.intakeCode),
  ],
);

/** Installation-wide secrets that must survive restarts and be the same in every process (receipt salt). */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Envelope encryption: each company's random data key, stored only wrapped (AES-256-GCM) by the master key.
 * Deleting a company's rows here makes its encrypted data unreadable (crypto-erase). `company_id` null is the
 * platform key, for files of users who belong to no company yet. One active (unretired) key per scope.
 */
export const dataKeys = pgTable(
  'data_keys',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    wrappedKey: text('wrapped_key').notNull(),
    createdAt: createdAt(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('data_keys_active_key')
      .on(sql`coalesce(${t.companyId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`retired_at IS NULL`),
    index('data_keys_company_idx').on(t.companyId),
  ],
);

/** What is left of a case deleted at the end of its retention period: dates and the rule, never content. */
export const caseDeletions = pgTable(
  'case_deletions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    caseNumber: text('case_number').notNull(),
    reportType: text('report_type').notNull(),
    finalStatus: text('final_status').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    retentionDays: integer('retention_days').notNull(),
    retentionSetBy: text('retention_set_by'),
    retentionSetAt: timestamp('retention_set_at', { withTimezone: true }),
    filesDeleted: integer('files_deleted').notNull(),
  },
  (t) => [index('case_deletions_company_idx').on(t.companyId, t.deletedAt)],
);

/** Verified e-mail domains: a user whose confirmed address is on one of them belongs to the company. */
export const companyDomains = pgTable('company_domains', {
  domain: text('domain').primaryKey(),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased, so the unique index makes e-mails case-insensitive. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    /** A join code given at registration, applied when the e-mail is confirmed. */
    pendingJoinCode: text('pending_join_code'),
    /**
     * `member` reports; `investigator` handles the cases assigned to them; `manager` handles every case and
     * assigns; `admin` also runs the company's settings; `operator` runs the platform, has no company and never
     * reads case content.
     */
    role: text('role', { enum: ['member', 'investigator', 'manager', 'admin', 'operator'] })
      .notNull()
      .default('member'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** When the daily deadline digest was last sent to this handler: at most one a day. */
    digestSentAt: timestamp('digest_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), index('users_company_idx').on(t.companyId)],
);

/** Only the SHA-256 of the session id is stored: a leaked table cannot be replayed as cookies. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * An account's TOTP authenticator (RFC 6238). `secret` is sealed with the platform key (docs/decisions/0004):
 * it must survive a company's key rotation or erase, or its user could never log in again. Null
 * `confirmed_at` is an enrolment begun but not yet proven with a code. `last_used_step` is the 30-second step
 * of the last code accepted: a code of that step or earlier is never accepted again.
 */
export const mfaTotp = pgTable('mfa_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-time recovery codes, stored as SHA-256 only (see domain/mfa/recovery-codes.ts for why not argon2). */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/** WebAuthn credentials registered as a second factor. The public key is public: stored as it is. */
export const mfaPasskeys = pgTable(
  'mfa_passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** base64url of the COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mfa_passkeys_credential_key').on(t.credentialId),
    index('mfa_passkeys_user_idx').on(t.userId),
  ],
);

/**
 * Server-side state between two steps: a login whose password was right and whose second factor is pending
 * (`login`, named by an HttpOnly cookie holding the id whose SHA-256 is stored), or a passkey registration
 * waiting for the browser's answer (`passkey_register`). Minutes long; `failures` ends a login challenge
 * after a few wrong codes.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['login', 'passkey_register'] }).notNull(),
    webauthnChallenge: text('webauthn_challenge'),
    failures: integer('failures').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('mfa_challenges_user_idx').on(t.userId, t.purpose),
    index('mfa_challenges_expires_idx').on(t.expiresAt),
  ],
);

/** Single-use e-mail confirmation and password-reset tokens, stored hashed. */
export const userTokens = pgTable(
  'user_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['confirm_email', 'reset_password'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_tokens_user_idx').on(t.userId, t.purpose)],
);

/**
 * Transactional outbox: a mail is a row written in the same transaction as the change that causes it, and a
 * worker delivers it. `locked_until` is a lease, so a worker that dies mid-send leaves the row to be retried.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    template: text('template').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`)],
);

/** Each ALTCHA solution is accepted once; the row lives until the challenge would have expired anyway. */
export const captchaSolutions = pgTable('captcha_solutions', {
  id: text('id').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Fixed-window counters for rate limits, shared by every API process. Keys that involve an IP address hold a
 * keyed hash of it, never the address.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_expires_idx').on(t.expiresAt)],
);

/**
 * An anonymous draft (docs/decisions/0005): the company it is for and an expiry, never who is writing it. Its
 * token travels as the `X-Intake-Token` header; only its hash is stored. After submission it keeps the
 * report's id and, sealed, the answer for a retried submission, until the replay window ends.
 */
export const intakeSessions = pgTable(
  'intake_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /** Sealed `{id, receipt}` of the submission, so a retry whose first answer was lost gets it again. */
    submission: text('submission'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('intake_sessions_token_hash_key').on(t.tokenHash),
    index('intake_sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Uploaded evidence. The bytes live in the file store under `storage_key`; the name is kept only for display. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Set instead of the user for evidence uploaded by an invitee (accused person or witness). */
    ownerInvitationId: uuid('owner_invitation_id'),
    /** Set instead of the user for evidence of an anonymous draft: no account is ever linked to it. */
    ownerIntakeId: uuid('owner_intake_id').references(() => intakeSessions.id, { onDelete: 'cascade' }),
    /** Set for evidence of a submitted anonymous report, and for files its receipt holder uploads later. */
    ownerReportId: uuid('owner_report_id').references((): AnyPgColumn => reports.id, { onDelete: 'cascade' }),
    /** What metadata removal achieved at upload: an `unremovable` file cannot be cited by an anonymous report. */
    metadataStatus: text('metadata_status', { enum: ['removed', 'none', 'unremovable'] })
      .notNull()
      .default('none'),
    originalName: text('original_name').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_owner_idx').on(t.ownerUserId),
    index('files_owner_intake_idx').on(t.ownerIntakeId),
    index('files_owner_report_idx').on(t.ownerReportId),
    uniqueIndex('files_storage_key_key').on(t.storageKey),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /**
     * Kept so the reporter finds their own named reports. Always null for an anonymous report: nothing joins
     * it to an account (docs/decisions/0005); its reporter comes back with the receipt.
     */
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    /** argon2id of an anonymous report's 16-digit receipt, under the installation's receipt salt. */
    receiptHash: text('receipt_hash'),
    /** An anonymous reporter's optional private address for content-free notices; sealed, gone at closing. */
    contactEmail: text('contact_email'),
    reportType: text('report_type', { enum: ['anonym', 'brief', 'formal'] }).notNull(),
    caseNumber: text('case_number').notNull(),
    form: jsonb('form').notNull(),
    status: text('status', { enum: ['received', 'investigating', 'action_taken', 'closed', 'dismissed'] })
      .notNull()
      .default('received'),
    idempotencyKey: text('idempotency_key'),
    /** The accused person's name, copied out of the form so managers can search cases by it. */
    accusedName: text('accused_name').notNull().default(''),
    /** Keyed blind index of the normalised accused name, for exact search over the sealed name. */
    accusedNameIndex: text('accused_name_index'),
    /**
     * The accused person's e-mail, sealed ('' when the form gave none), with its keyed blind index, so that
     * someone who becomes a handler later is matched by e-mail as at submission. NULL only on a report from
     * before migration 0014 whose form the start-up backfill (`indexAccusedEmails`) has not read yet.
     */
    accusedEmail: text('accused_email'),
    accusedEmailIndex: text('accused_email_index'),
    /**
     * Statistics dimensions copied out of the sealed form at submission (docs/decisions/0012): the accused
     * person's department, trimmed and with spaces collapsed, and the relationship as one of
     * RELATIONSHIP_OPTIONS_KO ('기타' for a free answer); '' when not given. Plaintext so the statistics
     * can group by them in SQL.
     */
    accusedDepartment: text('accused_department').notNull().default(''),
    relationship: text('relationship').notNull().default(''),
    /** The recorded outcome (76-3 ⑤): whether harassment was found, and what was done about it. */
    outcomeFinding: text('outcome_finding', {
      enum: ['substantiated', 'partially_substantiated', 'not_substantiated'],
    }),
    outcomeActions: jsonb('outcome_actions').$type<CaseAction[]>().notNull().default([]),
    /** Sealed. Shown to the reporter only where the company shares outcome summaries. */
    outcomeSummary: text('outcome_summary').notNull().default(''),
    outcomeAt: timestamp('outcome_at', { withTimezone: true }),
    outcomeBy: uuid('outcome_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    ackDueAt: timestamp('ack_due_at', { withTimezone: true }).notNull(),
    feedbackDueAt: timestamp('feedback_due_at', { withTimezone: true }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    feedbackAt: timestamp('feedback_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reports_case_number_key').on(t.companyId, t.caseNumber),
    index('reports_company_status_idx').on(t.companyId, t.status, t.createdAt),
    index('reports_company_type_idx').on(t.companyId, t.reportType, t.createdAt),
    uniqueIndex('reports_idempotency_key').on(t.reporterId, t.idempotencyKey),
    uniqueIndex('reports_receipt_hash_key').on(t.receiptHash),
    index('reports_accused_name_index_idx').on(t.companyId, t.accusedNameIndex),
    index('reports_accused_email_index_idx').on(t.companyId, t.accusedEmailIndex),
    // What the start-up backfill still has to read: empty once it has run, so each start finds that at once.
    index('reports_accused_email_unread_idx').on(t.id).where(sql`${t.accusedEmail} IS NULL`),
    index('reports_reporter_idx').on(t.reporterId, t.createdAt),
    // The manager list's default order, with its tie-breaker, so a page is read straight off the index.
    // Ascending on purpose: read backwards it gives `created_at DESC, id DESC` (nulls first, PostgreSQL's
    // default), which the query asks for; a `DESC NULLS LAST` index would not match it and went unused.
    index('reports_company_created_idx').on(t.companyId, t.createdAt, t.id),
    // The list's other sorts, the same way: each page is a keyset range of one of these (R-PERF-4).
    index('reports_company_updated_idx').on(t.companyId, t.updatedAt, t.id),
    index('reports_company_feedback_due_idx').on(t.companyId, t.feedbackDueAt, t.id),
    // The status filter sorted by the feedback deadline (the "what is due next" view of one status): a range of
    // this index, where the one above walked every status's cases and read each row for its status (8 ms a page
    // at 100,000 cases against 0.6 ms unfiltered).
    index('reports_company_status_feedback_due_idx').on(t.companyId, t.status, t.feedbackDueAt, t.id),
    // The search by the start of a case number: LIKE 'prefix%' is a range of a text_pattern_ops index under any
    // collation, where the unique (company_id, case_number) index serves it only under "C".
    index('reports_company_case_number_pattern_idx').on(t.companyId, t.caseNumber.op('text_pattern_ops')),
    // Also `reports_company_open_created_idx` (migration 0011, hand-written for its INCLUDE): the cases that can
    // be overdue, for the list's overdue filter.
    // Also `reports_company_stats_idx` (migration 0004, hand-written because drizzle cannot declare INCLUDE):
    // (company_id) INCLUDE the columns the statistics read, so they are index-only scans.
    // The overdue counts read two partial indexes of only the cases still waiting (migration 0011,
    // hand-written for the same reason): `reports_ack_waiting_idx` and `reports_feedback_waiting_idx`.
  ],
);

/**
 * Report counts per company, month of receipt (Asia/Seoul, the month's first day) and one dimension's value:
 * `total` (value ''), `status`, `type`, `finding` ('' = none yet), `department`, `relationship`, `action`
 * (one row per action of the outcome). Maintained by triggers on `reports` in the same transaction as every
 * write (migration 0011: `report_stats_apply`), rebuilt by `npm run admin -- stats:rebuild`.
 */
export const reportStatCounts = pgTable(
  'report_stat_counts',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    dimension: text('dimension', {
      enum: ['total', 'status', 'type', 'finding', 'department', 'relationship', 'action'],
    }).notNull(),
    value: text('value').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.dimension, t.value] })],
);

/**
 * Cases still waiting, per company, deadline and due day (UTC): `ack` (not acknowledged, by `ack_due_at`),
 * `feedback` (no feedback and not closed, by `feedback_due_at`), `both` (both, by the later of the two).
 * Overdue now = the days before today from here, plus today's waiting cases due before now off the partial
 * indexes: the counts stay exact as time passes without a trigger, and cost the same at any size.
 */
export const reportStatWaiting = pgTable(
  'report_stat_waiting',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['ack', 'feedback', 'both'] }).notNull(),
    dueDay: date('due_day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.dueDay] })],
);

/**
 * Histograms of whole days from receipt to acknowledgement (`ack`) and to closing (`close`) per company and
 * month of receipt, for the medians. Maintained like `report_stat_counts`.
 */
export const reportStatDurations = pgTable(
  'report_stat_durations',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    measure: text('measure', { enum: ['ack', 'close'] }).notNull(),
    days: integer('days').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.measure, t.days] })],
);

/** Which files a report cites; a cited file can no longer be deleted by its owner. */
export const reportFiles = pgTable(
  'report_files',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    /** A citation from before one-file-one-report (migration 0007): left as it was, outside the rule. */
    legacy: boolean('legacy').notNull().default(false),
    /**
     * The file's place in the report as the reporter cited it (acts first, then harms): an anonymous report's
     * generic names (증거자료-1, -2…) follow it, as the reporter's preview before submitting does.
     */
    position: integer('position').notNull().default(0),
    /** Set when the file came with a message after submission rather than with the report itself. */
    messageId: uuid('message_id').references((): AnyPgColumn => reportMessages.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.fileId] }),
    index('report_files_file_idx').on(t.fileId),
    // One file, one report: the same file in an anonymous and a named report would name the reporter.
    uniqueIndex('report_files_one_report_key').on(t.fileId).where(sql`NOT legacy`),
  ],
);

/**
 * A receipt holder's access to one anonymous report: no user, a fixed life, and no last-seen writes (they
 * would record when the reporter reads their case).
 */
export const receiptSessions = pgTable(
  'receipt_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('receipt_sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Receipts issued to the reporters of anonymous reports filed before reports became unlinkable (decision
 * 0005), shown once after their next login. The payload (report and receipt) is sealed with the platform key.
 */
export const pendingReceipts = pgTable(
  'pending_receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    payload: text('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('pending_receipts_user_idx').on(t.userId)],
);

export const reportStatusHistory = pgTable(
  'report_status_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    fromStatus: text('from_status').$type<ReportStatus>(),
    toStatus: text('to_status').$type<ReportStatus>().notNull(),
    noteForReporter: text('note_for_reporter').notNull().default(''),
    internalNote: text('internal_note').notNull().default(''),
    /** A note for the reporter that the handler marked as the feedback the law's deadline asks for. */
    isFeedback: boolean('is_feedback').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('report_status_history_report_idx').on(t.reportId, t.createdAt)],
);

/** The thread between the reporter and the company's managers on one case. */
export const reportMessages = pgTable(
  'report_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    authorKind: text('author_kind', { enum: ['reporter', 'manager'] }).notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    /** A handler's message marked as the feedback the law's deadline asks for. */
    isFeedback: boolean('is_feedback').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('report_messages_report_idx').on(t.reportId, t.createdAt)],
);

/**
 * Protective measures for the victim (Labor Standards Act art. 76-3 ③④): what was requested, whether the
 * reporter agreed, and the employer's decision with its reason and date.
 */
export const protectiveMeasures = pgTable(
  'protective_measures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    measure: text('measure').$type<ProtectionOption>().notNull(),
    detail: text('detail').notNull().default(''),
    requestedByReporter: boolean('requested_by_reporter').notNull().default(false),
    reporterConsent: boolean('reporter_consent'),
    /** Sealed. The reporter's own words on the measure (76-3 ④: a measure must not go against their will). */
    reporterOpinion: text('reporter_opinion').notNull().default(''),
    reporterOpinionAt: timestamp('reporter_opinion_at', { withTimezone: true }),
    decision: text('decision', { enum: ['pending', 'granted', 'refused'] })
      .notNull()
      .default('pending'),
    reason: text('reason').notNull().default(''),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('protective_measures_report_idx').on(t.reportId)],
);

/** Every manager list, read, export, download and change: who did what to which case, and when. */
/**
 * The audit actions that record a read, not a change. Repeated reads fold into one row (domain/audit); the
 * fold's two lookups each have a partial index below, over reads and over changes.
 */
export const AUDIT_READ_ACTIONS = ['report.read', 'report.watch', 'report.list', 'file.download'] as const;
/** `('report.read', …)`: the list above as SQL literals, the same text in the indexes and in the queries. */
export const AUDIT_READ_ACTIONS_SQL = `(${AUDIT_READ_ACTIONS.map((action) => `'${action}'`).join(', ')})`;

export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** What changed, for settings and role changes (old and new values; never case content). */
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Repeated reads of one case by one user within minutes are one row: the last time and how many. */
    lastAt: timestamp('last_at', { withTimezone: true }),
    repeatCount: integer('repeat_count').notNull().default(1),
  },
  (t) => [
    index('audit_events_target_idx').on(t.targetId, t.at),
    index('audit_events_company_idx').on(t.companyId, t.at),
    // A read folds into the same user's latest read of the same target (newest first)…
    index('audit_events_reads_idx')
      .on(t.actorId, t.targetId, t.action, t.at)
      .where(sql.raw(`action IN ${AUDIT_READ_ACTIONS_SQL}`)),
    // …unless a change to the target was recorded since: a short index of the changes alone, so that check never
    // walks the target's reads (a company's list reads are hundreds of thousands of rows a year).
    index('audit_events_changes_idx')
      .on(t.companyId, t.targetId, t.at)
      .where(sql.raw(`action NOT IN ${AUDIT_READ_ACTIONS_SQL}`)),
  ],
);

/**
 * A request to the accused person or a witness to give a statement through a mailed link, without an
 * account. Only the hash of the link's token is stored; re-sending replaces it, so the old link dies.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['defendant', 'reference'] }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** The reporter-named witness this invitation is for (index into the form's witnesses), if any. */
    witnessIndex: integer('witness_index'),
    tokenHash: text('token_hash').notNull(),
    shareEvidence: boolean('share_evidence').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    index('invitations_report_idx').on(t.reportId),
  ],
);

/** A statement given through an invitation, with the SHA-256 shown to the invitee as a receipt. */
export const statements = pgTable(
  'statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invitationId: uuid('invitation_id')
      .notNull()
      .references(() => invitations.id, { onDelete: 'cascade' }),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['defendant', 'reference'] }).notNull(),
    form: jsonb('form').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('statements_report_idx').on(t.reportId, t.createdAt)],
);

/** Investigators (and others) assigned to handle a case. An investigator sees only the cases assigned to them. */
export const reportAssignees = pgTable(
  'report_assignees',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assignedBy: uuid('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.userId] }), index('report_assignees_user_idx').on(t.userId)],
);

/**
 * Conflicts of interest: a company user who must never see a case, on any surface, because they are (or may
 * be) the accused person in it, or because a manager excluded them by hand.
 */
export const caseExclusions = pgTable(
  'case_exclusions',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: ['accused_name', 'accused_email', 'manual'] }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.userId] }), index('case_exclusions_user_idx').on(t.userId)],
);

/**
 * An invitation to handle a company's cases (or run it, as `admin`), sent by its admin or, for the first admin,
 * by the operator. Only the hash of the mailed token is stored.
 */
export const companyInvitations = pgTable(
  'company_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['investigator', 'manager', 'admin'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('company_invitations_token_hash_key').on(t.tokenHash),
    index('company_invitations_company_idx').on(t.companyId, t.createdAt),
  ],
);

/** A mail domain a company admin asked to add, proven by a link mailed to an address at it. */
export const companyDomainClaims = pgTable(
  'company_domain_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('company_domain_claims_token_hash_key').on(t.tokenHash),
    index('company_domain_claims_company_idx').on(t.companyId),
  ],
);
