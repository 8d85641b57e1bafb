import { randomInt } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { companies, companyDomains, users } from './db/schema.ts';
import { generateJoinCode } from './domain/companies/admin.ts';
import { hashPassword, isCommonPassword } from './lib/passwords.ts';

export interface DemoAccount {
  role: 'operator' | 'admin' | 'manager' | 'member';
  email: string;
  name: string;
  password: string;
}

export interface DemoSeed {
  companyId: string;
  companyName: string;
  domain: string;
  joinCode: string;
  /** The company's public intake code: anonymous reports without an account at `/c/{code}`. */
  intakeCode: string;
  accounts: DemoAccount[];
}

export const DEMO_COMPANY_NAME = '데모 주식회사';
export const DEMO_DOMAIN = 'demo.example';
/** The platform's operator belongs to no company: an address outside the demo company's domain. */
export const DEMO_OPERATOR_EMAIL = 'operator@ansim.example';

const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 16 characters of a 56-letter alphabet (about 93 bits), grouped so it can be typed from the console. */
function generatePassword(): string {
  for (;;) {
    const chars = Array.from({ length: 16 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]);
    const password = [0, 4, 8, 12].map((start) => chars.slice(start, start + 4).join('')).join('-');
    if (!isCommonPassword(password)) return password;
  }
}

/**
 * A demo company so a fresh `npm start` can be tried at once. Only on the embedded database outside
 * production: a configured PostgreSQL is a real deployment, where accounts with passwords printed to a console
 * (and so to its log collector) must never appear.
 */
export function shouldSeedDemo(config: Pick<Config, 'DATABASE_URL' | 'NODE_ENV'>): boolean {
  return !config.DATABASE_URL && config.NODE_ENV !== 'production';
}

async function isEmpty(db: Pick<Db, 'select'>): Promise<boolean> {
  const [companyCount] = await db.select({ n: count() }).from(companies);
  const [userCount] = await db.select({ n: count() }).from(users);
  return Number(companyCount?.n) === 0 && Number(userCount?.n) === 0;
}

/** Creates the demo company and accounts when the database has no company and no user; else does nothing. */
export async function seedDemoData(database: Database, config: Config): Promise<DemoSeed | null> {
  if (!shouldSeedDemo(config)) return null;
  const accounts: DemoAccount[] = [
    { role: 'operator', email: DEMO_OPERATOR_EMAIL, name: '안심운영', password: generatePassword() },
    { role: 'admin', email: `admin@${DEMO_DOMAIN}`, name: '박관리', password: generatePassword() },
    { role: 'manager', email: `manager@${DEMO_DOMAIN}`, name: '김담당', password: generatePassword() },
    { role: 'member', email: `member@${DEMO_DOMAIN}`, name: '이직원', password: generatePassword() },
  ];
  // Checked before hashing too, so an ordinary restart does not pay for two argon2 hashes.
  if (!(await isEmpty(database.db))) return null;
  const hashes = await Promise.all(accounts.map((account) => hashPassword(account.password)));
  return database.db.transaction(async (tx) => {
    if (!(await isEmpty(tx))) return null;
    const joinCode = generateJoinCode();
    const [company] = await tx
      .insert(companies)
      .values({ name: DEMO_COMPANY_NAME, joinCode })
      .returning({ id: companies.id, intakeCode: companies.intakeCode });
    const companyId = company!.id;
    await tx.insert(companyDomains).values({ domain: DEMO_DOMAIN, companyId });
    const now = new Date();
    await tx.insert(users).values(
      accounts.map((account, i) => ({
        email: account.email,
        passwordHash: hashes[i]!,
        name: account.name,
        companyId: account.role === 'operator' ? null : companyId,
        role: account.role,
        emailConfirmedAt: now,
      })),
    );
    return {
      companyId,
      companyName: DEMO_COMPANY_NAME,
      domain: DEMO_DOMAIN,
      joinCode,
      intakeCode: company!.intakeCode,
      accounts,
    };
  });
}

const ROLE_LABELS: Record<DemoAccount['role'], string> = {
  operator: '운영자 operator',
  admin: '관리자 admin   ',
  manager: '담당자 manager ',
  member: '직원   member  ',
};

/** The only place these passwords ever appear: they are not stored anywhere but as argon2id hashes. */
export function formatDemoSeed(seed: DemoSeed): string {
  const rule = '='.repeat(72);
  const lines = [
    rule,
    ' 데모 계정을 만들었습니다 / Demo accounts created (embedded database, first start)',
    rule,
    ` 회사 Company : ${seed.companyName} (${seed.domain}), 가입 코드 join code: ${seed.joinCode}`,
    ` 익명 신고 링크 intake link: /c/${seed.intakeCode}`,
    '',
    ...seed.accounts.map(
      (account) =>
        ` ${ROLE_LABELS[account.role]} : ${account.email}   비밀번호 password: ${account.password}`,
    ),
    '',
    ' 운영자는 /operator, 관리자와 담당자는 /manager 를 씁니다. 셋 다 첫 로그인 후 2단계 인증(인증 앱 또는',
    ' 패스키)을 설정해야 합니다.',
    ' The operator works at /operator, the admin and the manager at /manager; all three must set up two-step',
    ' verification (app or passkey) at first login.',
    ' 비밀번호는 지금 한 번만 표시됩니다. 다시 볼 수 없으니 적어두세요.',
    ' These passwords are shown only this once; they are stored only as hashes.',
    rule,
  ];
  return lines.join('\n');
}
