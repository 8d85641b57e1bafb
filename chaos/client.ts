// What the chaos clients do over HTTP, and the accounts they do it with.

import http from 'node:http';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@ansim/shared/constants';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Database } from '../apps/api/src/db/client.ts';
import { mfaPasskeys, users } from '../apps/api/src/db/schema.ts';
import { createCompany } from '../apps/api/src/domain/companies/admin.ts';
import { createSession } from '../apps/api/src/domain/sessions/sessions.ts';
import { hashPassword } from '../apps/api/src/lib/passwords.ts';
import { tenKilobyteForm } from '../bench/scenarios.ts';

export const CHAOS_DOMAIN = 'chaos.example';
const CSRF = 'chaos-csrf-token-chaos-csrf-token-chaos-0123';
/** A request that has not answered in this time counts as a hang. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface Reporter {
  email: string;
  cookie: string;
}

export interface Accounts {
  companyId: string;
  manager: Reporter;
  reporters: Reporter[];
}

/**
 * One company with one manager (every report queues a notice mail to them) and `count` confirmed members,
 * each with a live session made by the same domain function login uses, so no captcha is solved per client.
 */
export async function seedAccounts(database: Database, count: number): Promise<Accounts> {
  const limits = loadConfig({ SECRET_KEY: 'x'.repeat(32) });
  const company = await createCompany(database, { name: '혼돈 시험 주식회사', domain: CHAOS_DOMAIN });
  const passwordHash = await hashPassword('혼돈-시험-비밀번호-2026!');
  const now = new Date();
  const managerEmail = `manager@${CHAOS_DOMAIN}`;
  const [manager] = await database.db
    .insert(users)
    .values({
      email: managerEmail,
      passwordHash,
      name: '최담당',
      companyId: company.id,
      role: 'manager',
      emailConfirmedAt: now,
    })
    .returning({ id: users.id });
  const managerSession = await createSession(database, manager!.id, limits);
  // Managers need a second factor (R-ACC-7); a placeholder passkey opens the manager routes to this session.
  await database.db
    .insert(mfaPasskeys)
    .values({ userId: manager!.id, credentialId: 'chaos-placeholder', publicKey: 'none', name: 'chaos' });
  const members = await database.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        email: `reporter${i}@${CHAOS_DOMAIN}`,
        passwordHash,
        name: `신고자${i}`,
        companyId: company.id,
        emailConfirmedAt: now,
      })),
    )
    .returning({ id: users.id, email: users.email });
  const reporters: Reporter[] = [];
  for (const member of members) {
    const session = await createSession(database, member.id, limits);
    reporters.push({ email: member.email, cookie: `${SESSION_COOKIE}=${session.id}` });
  }
  return {
    companyId: company.id,
    manager: { email: managerEmail, cookie: `${SESSION_COOKIE}=${managerSession.id}` },
    reporters,
  };
}

function headers(cookie = '', extra: Record<string, string> = {}): Record<string, string> {
  return {
    [CSRF_HEADER]: CSRF,
    cookie: `${CSRF_COOKIE}=${CSRF}${cookie ? `; ${cookie}` : ''}`,
    ...extra,
  };
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** One request; a network error or a timeout throws, so the caller tells "no answer" from an answer. */
export async function call(
  base: string,
  method: string,
  pathname: string,
  options: { cookie?: string; json?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const extra: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) extra['content-type'] = 'application/json';
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: headers(options.cookie, extra),
    body: options.json !== undefined ? JSON.stringify(options.json) : options.form,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** A small PDF: the upload route keeps files by their magic bytes, and PDF is one of the allowed kinds. */
export function evidencePdf(label: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${label}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n`);
}

export function evidenceForm(label: string): FormData {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(evidencePdf(label))], { type: 'application/pdf' }),
    `증거-${label}.pdf`,
  );
  return form;
}

const baseForm = tenKilobyteForm();

export function reportForm(fileId?: string) {
  const [first, ...rest] = baseForm.acts;
  return { ...baseForm, acts: [{ ...first!, evidences: fileId ? [fileId] : null }, ...rest] };
}

export function submitReport(base: string, reporter: Reporter, key: string, fileId?: string) {
  return call(base, 'POST', '/api/v1/report/', {
    cookie: reporter.cookie,
    json: reportForm(fileId),
    headers: { 'idempotency-key': key },
  });
}

export function uploadEvidence(base: string, reporter: Reporter, label: string) {
  return call(base, 'POST', '/api/v1/file/', { cookie: reporter.cookie, form: evidenceForm(label) });
}

/**
 * A request whose body trickles in over `durationMs`, on its own connection: it is in flight for that long,
 * which is what a drain on shutdown must wait for.
 */
export function slowRequest(
  port: number,
  pathname: string,
  body: { contentType: string; bytes: Buffer; cookie: string; extraHeaders?: Record<string, string> },
  durationMs: number,
): { started: Promise<void>; done: Promise<{ status: number; text: string }> } {
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const done = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        agent: false,
        headers: {
          ...headers(body.cookie, body.extraHeaders),
          'content-type': body.contentType,
          'content-length': String(body.bytes.length),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', (error) => {
      // A request refused before it connected still counts as started, so the scenario never waits forever.
      markStarted();
      reject(error);
    });
    request.setTimeout(REQUEST_TIMEOUT_MS * 2, () => request.destroy(new Error('timed out')));
    const pieces = 10;
    const size = Math.ceil(body.bytes.length / pieces);
    let sent = 0;
    request.once('socket', (socket) => socket.once('connect', markStarted));
    const sendNext = () => {
      const piece = body.bytes.subarray(sent * size, (sent + 1) * size);
      sent += 1;
      if (sent >= pieces) {
        request.end(piece);
        return;
      }
      request.write(piece);
      if (!request.destroyed) setTimeout(sendNext, durationMs / pieces);
    };
    sendNext();
  });
  // Awaited only after the signal is sent: a reset before then is an outcome of the scenario, not a stray error.
  done.catch(() => {});
  return { started, done };
}

/** A multipart body by hand, for the slow upload that fetch cannot trickle. */
export function multipartBody(label: string): { contentType: string; bytes: Buffer } {
  const boundary = `----chaos${label.replace(/\W/g, '')}`;
  const bytes = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow-${label}.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    evidencePdf(label),
    Buffer.alloc(64 * 1024, 0x20),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes };
}

/** A manager's live view of one case (server-sent events): every distinct state it pushes, in order. */
export function watchCase(base: string, manager: Reporter, reportId: string) {
  const states: string[] = [];
  let ended = false;
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${base}/api/v1/manager/report/${reportId}/events`, {
      headers: headers(manager.cookie),
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) throw new Error(`events: ${response.status}`);
    let buffer = '';
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const data = buffer.slice(0, end).replace(/^data: /, '');
        buffer = buffer.slice(end + 2);
        if (states.at(-1) !== data) states.push(data);
        end = buffer.indexOf('\n\n');
      }
    }
  })()
    .catch(() => {})
    .finally(() => {
      ended = true;
    });
  return {
    states,
    get ended() {
      return ended;
    },
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}
