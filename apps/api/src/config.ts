import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** 32 raw bytes from 64 hex digits or base64 (standard or URL-safe), else null. */
export function decodeKey(value: string): Buffer | null {
  const text = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text, 'base64')
      : null;
  return bytes?.length === 32 ? bytes : null;
}

const durationSeconds = z.coerce.number().int().positive();

/** An address or CIDR range proxy-addr understands, or one of its named ranges. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which hops of X-Forwarded-For to believe: `false` (none, the default), a hop count (the number of proxies in
 * front, e.g. 1 behind Caddy), or the proxies' addresses. `true` is refused: it believes every hop, so a
 * client picks its own address with one header and walks past every per-IP limit.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    if (/^(false|no)$/i.test(value)) return false;
    if (/^\d{1,2}$/.test(value)) return Number(value) || false;
    const entries = value.split(',').map((entry) => entry.trim());
    if (!/^(true|yes)$/i.test(value) && entries.every(isProxyAddress)) return entries;
    ctx.addIssue({
      code: 'custom',
      message: /^(true|yes)$/i.test(value)
        ? 'true is refused: it trusts every X-Forwarded-For hop, so any client could choose its own address and escape the per-IP limits; give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)'
        : 'must be false, a hop count (e.g. 1) or a comma-separated list of proxy addresses/CIDRs',
    });
    return z.NEVER;
  });

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    WEB_DIST: z.string().min(1).optional(),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default('안심신고 <no-reply@ansim.local>'),
    SESSION_ABSOLUTE_SECONDS: durationSeconds.default(12 * 3600),
    SESSION_IDLE_SECONDS: durationSeconds.default(2 * 3600),
    /**
     * Test only: `PUT /api/test/clock` moves the session clock forward (lib/server-clock.ts), so the e2e suite
     * can show a session outliving two hours of work. Refused unless NODE_ENV=test.
     */
    TEST_CLOCK_ROUTE: booleanFromEnv.default(false),
    CAPTCHA_PROVIDER: z.enum(['altcha', 'turnstile']).optional(),
    ALTCHA_HMAC_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    TURNSTILE_SITE_KEY: z.string().min(1).optional(),
    TURNSTILE_SECRET_KEY: z.string().min(1).optional(),
    TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
    /** Work asked of the browser: the solver tries on average half this many hashes. */
    ALTCHA_MAX_NUMBER: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
    /** Keyed hashes (rate-limit keys of IP addresses) and the ALTCHA key when none is given. */
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Master key of encryption at rest: 32 bytes as 64 hex digits or base64. It wraps each company's data key. */
    ENCRYPTION_KEY: z
      .string()
      .refine((value) => decodeKey(value) !== null, 'must be 32 bytes, as 64 hex digits or base64')
      .optional(),
    /**
     * Refuse (an error, never plaintext) any non-empty value of a sealed column that is not sealed. Turn it on
     * once `encryption:upgrade` has sealed every value written before encryption at rest.
     */
    ENCRYPTION_REQUIRE_SEALED: booleanFromEnv.default(false),
    TRUST_PROXY: trustProxy.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOGIN_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(10),
    LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().positive().default(100),
    /**
     * Receipt look-ups from one address per hour, counted by this process under its own visitor key (decision
     * 0030): an hour window, so no row says the minute of a reporter's visit.
     */
    RECEIPT_LIMIT_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(30),
    /** Public intake-page look-ups from one address per hour, counted like the receipt look-ups. */
    INTAKE_LOOKUPS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(200),
    /** Registrations, confirmation re-sends and reset requests from one address, together. */
    ACCOUNT_REQUESTS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(30),
    /** Registrations carrying a join code from one address, right or wrong: guessing codes stays slow. */
    JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(10),
    /** Registration, re-send and reset requests naming one e-mail address: at most this many mails to it. */
    MAILS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(5),
    MAIL_RETRY_BASE_SECONDS: z.coerce.number().positive().default(30),
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().positive().default(12),
    MAX_FILE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(50 * 1024 * 1024),
    MAX_USER_FILES_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024 * 1024),
    MAIL_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Time one upload's metadata removal may take in its worker; beyond it the file is `unremovable`. */
    METADATA_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
    /**
     * Fewest metadata workers (threads), whatever the machine; more where cores and memory allow. With two or
     * more, one company's uploads never hold every worker (lib/fair-queue.ts).
     */
    METADATA_WORKERS_MIN: z.coerce.number().int().min(1).max(64).default(2),
    /** Longest an upload waits for a metadata worker; past it the answer is 503 UPLOAD_BUSY with Retry-After. */
    METADATA_WAIT_MS: z.coerce.number().int().positive().default(30_000),
    /** Uploads per hour of one caller (intake session, receipt session, account, invitation), and their bytes. */
    UPLOADS_PER_CALLER_PER_HOUR: z.coerce.number().int().positive().default(60),
    UPLOAD_BYTES_PER_CALLER_PER_HOUR: z.coerce
      .number()
      .int()
      .positive()
      .default(500 * 1024 * 1024),
    /** Uploads per hour from one address, and their bytes: room for a whole office behind one NAT. */
    UPLOADS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(300),
    UPLOAD_BYTES_PER_IP_PER_HOUR: z.coerce
      .number()
      .int()
      .positive()
      .default(2 * 1024 * 1024 * 1024),
    /**
     * Notices to an anonymous reporter's private address leave after a random delay of up to this many seconds,
     * so the mail server's log cannot match their time to the manager's action (0 sends at once).
     */
    ANONYMOUS_NOTICE_DELAY_MAX_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(6 * 3600),
    /** Where evidence files live: `disk` under DATA_DIR/files (one machine), `s3` in a bucket (several). */
    FILE_STORE: z.enum(['disk', 's3']).default('disk'),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3–63 of a-z 0-9 . -)')
      .optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** STS session token that goes with temporary S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY. */
    S3_SESSION_TOKEN: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
    /** Who runs this installation, shown on the landing page, the privacy policy and the terms. */
    OPERATOR_NAME: z.string().trim().min(1).max(200).default('안심신고 운영팀'),
    /** How to reach the operator and its privacy officer (an e-mail address or a phone number). */
    OPERATOR_CONTACT: z.string().trim().min(1).max(200).default('privacy@ansim.local'),
  })
  .superRefine((value, ctx) => {
    if (value.FILE_STORE === 's3') {
      if (!value.S3_BUCKET)
        ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when FILE_STORE=s3' });
    }
    // Without keys the S3 driver uses the machine's credentials (AWS_* variables, container or instance role);
    // half a pair, or a session token without its keys, is a mistake, not a request for that.
    if (Boolean(value.S3_ACCESS_KEY_ID) !== Boolean(value.S3_SECRET_ACCESS_KEY)) {
      const missing = value.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message:
          'must be set with its pair (or leave both unset to use the AWS_* variables or the container/instance role)',
      });
    }
    if (value.S3_SESSION_TOKEN && !value.S3_ACCESS_KEY_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_SESSION_TOKEN'],
        message: 'needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (the temporary keys it belongs to)',
      });
    }
    if (value.CAPTCHA_PROVIDER === 'turnstile' && !(value.TURNSTILE_SITE_KEY && value.TURNSTILE_SECRET_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA_PROVIDER'],
        message: 'turnstile needs TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY',
      });
    }
    if (value.TEST_CLOCK_ROUTE && value.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_CLOCK_ROUTE'],
        message:
          'is for the e2e suite only and is refused unless NODE_ENV=test (it lets a client age sessions)',
      });
    }
    if (value.NODE_ENV === 'production' && !value.ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENCRYPTION_KEY'],
        message:
          'is required in production (the master key of encryption at rest; kept apart from SECRET_KEY so that changing that one never makes stored reports unreadable)',
      });
    }
    if (value.NODE_ENV === 'production' && !value.SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRET_KEY'],
        message:
          'is required in production (a random key would change at every restart and differ per process)',
      });
    }
  });

export type RawConfig = z.infer<typeof configSchema>;

export interface Config
  extends Omit<RawConfig, 'PUBLIC_URL' | 'CAPTCHA_PROVIDER' | 'SECRET_KEY' | 'ALTCHA_HMAC_KEY'> {
  PUBLIC_URL: string;
  SECRET_KEY: string;
  /**
   * The master key of encryption at rest: ENCRYPTION_KEY, else derived from a configured SECRET_KEY. Null
   * when neither is set (development only): the key is then kept in a file of the data directory.
   */
  encryptionKey: Buffer | null;
  ALTCHA_HMAC_KEY: string;
  CAPTCHA_PROVIDER: 'altcha' | 'turnstile';
  /** Absolute data directory: embedded database, uploaded files and the dev mail folder live below it. */
  dataDir: string;
  isHttps: boolean;
}

export class ConfigError extends Error {}

/**
 * Reads the configuration from the environment. A bad value fails with one line naming every bad variable,
 * so a misconfigured deployment stops at once instead of misbehaving later.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration — ${problems.join('; ')}`);
  }
  const raw = parsed.data;
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, '');
  const turnstile = raw.TURNSTILE_SITE_KEY && raw.TURNSTILE_SECRET_KEY;
  const secretKey = raw.SECRET_KEY ?? randomBytes(32).toString('hex');
  return {
    ...raw,
    SECRET_KEY: secretKey,
    encryptionKey: raw.ENCRYPTION_KEY
      ? decodeKey(raw.ENCRYPTION_KEY)
      : raw.SECRET_KEY
        ? createHash('sha256').update(`encryption-at-rest:${raw.SECRET_KEY}`).digest()
        : null,
    ALTCHA_HMAC_KEY: raw.ALTCHA_HMAC_KEY ?? createHash('sha256').update(`altcha:${secretKey}`).digest('hex'),
    PUBLIC_URL: publicUrl,
    CAPTCHA_PROVIDER: raw.CAPTCHA_PROVIDER ?? (turnstile ? 'turnstile' : 'altcha'),
    dataDir: path.resolve(raw.DATA_DIR),
    isHttps: publicUrl.startsWith('https://'),
  };
}
