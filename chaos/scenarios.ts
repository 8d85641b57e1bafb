// The four faults. Each prints its figures and returns whether every goal held.

import { randomInt } from 'node:crypto';
import net from 'node:net';
import { ABANDONED_PART_AGE_MS } from '../apps/api/src/domain/files/sweep-orphans.ts';
import {
  type Acknowledged,
  ageTemporaryParts,
  type FileStoreState,
  fileStoreState,
  outboxState,
  reportState,
  sleep,
  sql,
  waitFor,
} from './checks.ts';
import {
  type Accounts,
  type Answer,
  call,
  multipartBody,
  type Reporter,
  reportForm,
  slowRequest,
  submitReport,
  uploadEvidence,
  watchCase,
} from './client.ts';
import type { ApiProcess, SmtpSink, ThrowawayPostgres } from './infra.ts';

export interface Chaos {
  postgres: ThrowawayPostgres;
  smtp: SmtpSink;
  api: ApiProcess;
  databaseUrl: string;
  dataDir: string;
  accounts: Accounts;
  /** The host part of every outbox Message-ID (PUBLIC_URL's hostname). */
  mailHost: string;
}

export function verdict(name: string, failures: string[]): boolean {
  if (failures.length === 0) console.info(`PASS  ${name}`);
  else console.info(`FAIL  ${name}: ${failures.join('; ')}`);
  return failures.length === 0;
}

function expect(failures: string[], label: string, actual: number, goal = 0): void {
  if (actual !== goal) failures.push(`${label} = ${actual} (goal ${goal})`);
}

/** A retryable "no answer": the process is down or restarting. */
const isRetryable = (answer: Answer) => answer.status === 503;

interface SubmitterResult {
  ack?: Acknowledged;
  attempts: number;
  unexpected: string[];
}

/**
 * One reporter's submission as a careful client makes it: upload the evidence (if any), then file the report
 * under an idempotency key; anything not acknowledged is tried again, the report always under the same key.
 */
async function submitter(
  base: () => string,
  reporter: Reporter,
  key: string,
  withFile: boolean,
  deadline: number,
  onAck: () => void,
): Promise<SubmitterResult> {
  let fileId: string | undefined;
  let attempts = 0;
  let refusedInARow = 0;
  const unexpected: string[] = [];
  while (Date.now() < deadline) {
    attempts += 1;
    try {
      if (withFile && !fileId) {
        const uploaded = await uploadEvidence(base(), reporter, key);
        if (uploaded.status === 201) fileId = (uploaded.body as { id: string }).id;
        else if (!isRetryable(uploaded))
          unexpected.push(`upload ${uploaded.status} ${uploaded.text.slice(0, 120)}`);
        refusedInARow = 0;
        if (!fileId) {
          await sleep(50 + randomInt(100));
          continue;
        }
      }
      const answer = await submitReport(base(), reporter, key, fileId);
      if (answer.status === 201) {
        onAck();
        return { ack: { key, id: (answer.body as { id: string }).id, fileId }, attempts, unexpected };
      }
      refusedInARow = 0;
      if (!isRetryable(answer)) unexpected.push(`report ${answer.status} ${answer.text.slice(0, 120)}`);
    } catch {
      // Connection refused or reset: the server is down; try again, backing off as a polite client does.
      refusedInARow += 1;
      await sleep(Math.min(1000, 25 * 2 ** refusedInARow) + randomInt(100));
      continue;
    }
    await sleep(50 + randomInt(100));
  }
  return { attempts, unexpected };
}

/** 1. SIGKILL at a random moment under concurrent submissions, restart, retries with the same keys. */
export async function killDuringSubmissions(
  chaos: Chaos,
  options: { rounds: number; clients: number; killJitterMs: number; mailBoundMs: number },
): Promise<boolean> {
  console.info(
    `\n== 1. SIGKILL under load: ${options.rounds} rounds × ${options.clients} concurrent submitters ==`,
  );
  const failures: string[] = [];
  const totals = {
    acknowledged: 0,
    unacknowledgedAtKill: 0,
    attempts: 0,
    lost: 0,
    duplicates: 0,
    missingKeys: 0,
    evidenceLinksLost: 0,
    bytesWithoutRow: 0,
    rowsWithoutBytes: 0,
    temporaryParts: 0,
    leftBytes: 0,
    leftParts: 0,
    unexpected: 0,
    unresolved: 0,
  };
  const restartMs: number[] = [];
  const reporters = chaos.accounts.reporters.slice(0, options.clients);
  const base = () => chaos.api.base;
  for (let round = 1; round <= options.rounds; round += 1) {
    // A random moment inside the load: after a random number of acknowledgements, plus a few milliseconds,
    // so the kill finds uploads, submissions and commits in flight rather than an idle server.
    let unacknowledged = reporters.length;
    const killAfterAcks = randomInt(reporters.length);
    let triggerKill: () => void = () => {};
    const killMoment = new Promise<void>((resolve) => {
      triggerKill = resolve;
    });
    if (killAfterAcks === 0) setTimeout(triggerKill, randomInt(50));
    const roundStarted = Date.now();
    let killedAtMs = 0;
    let atKill = 0;
    let restartedIn = 0;
    let leftByKill: FileStoreState | undefined;
    const killing = (async () => {
      await killMoment;
      await sleep(randomInt(options.killJitterMs + 1));
      killedAtMs = Date.now() - roundStarted;
      atKill = unacknowledged;
      await chaos.api.kill('SIGKILL');
      leftByKill = await fileStoreState(chaos.databaseUrl, chaos.dataDir);
      // Parts of cut uploads are removed once no upload can still be writing them (ABANDONED_PART_AGE_MS);
      // the process that wrote them is dead, so they are aged past that here and the start's sweep must act.
      ageTemporaryParts(chaos.dataDir, ABANDONED_PART_AGE_MS + 60_000);
      const started = Date.now();
      await chaos.api.start();
      restartedIn = Date.now() - started;
    })();
    const deadline = Date.now() + 90_000;
    const keys = reporters.map((_, i) => `chaos-r${round}-c${i}`);
    const results = await Promise.all(
      reporters.map((reporter, i) =>
        submitter(base, reporter, keys[i]!, i % 3 === 0, deadline, () => {
          unacknowledged -= 1;
          if (reporters.length - unacknowledged === killAfterAcks) triggerKill();
        }),
      ),
    );
    await killing;
    restartMs.push(restartedIn);
    const acks = results.flatMap((result) => (result.ack ? [result.ack] : []));
    const reports = await reportState(chaos.databaseUrl, keys, acks);
    const files = (
      await waitFor(
        () => fileStoreState(chaos.databaseUrl, chaos.dataDir),
        (state) => state.bytesWithoutRow === 0 && state.rowsWithoutBytes === 0 && state.temporaryParts === 0,
        10_000,
      )
    ).value;
    const unexpected = results.flatMap((result) => result.unexpected);
    const attempts = results.reduce((sum, result) => sum + result.attempts, 0);
    totals.acknowledged += acks.length;
    totals.unacknowledgedAtKill += atKill;
    totals.attempts += attempts;
    totals.lost += reports.lost;
    totals.duplicates += reports.duplicates;
    totals.missingKeys += reports.missingKeys;
    totals.evidenceLinksLost += reports.evidenceLinksLost;
    totals.bytesWithoutRow += files.bytesWithoutRow;
    totals.rowsWithoutBytes += files.rowsWithoutBytes;
    totals.temporaryParts += files.temporaryParts;
    totals.leftBytes += leftByKill?.bytesWithoutRow ?? 0;
    totals.leftParts += leftByKill?.temporaryParts ?? 0;
    totals.unexpected += unexpected.length;
    totals.unresolved += reporters.length - acks.length;
    console.info(
      `round ${String(round).padStart(2)}: killed at ${String(killedAtMs).padStart(4)} ms with ` +
        `${String(atKill).padStart(3)}/${reporters.length} unacknowledged, restarted in ${restartedIn} ms; ` +
        `acknowledged ${acks.length}, requests ${attempts}, lost ${reports.lost}, duplicates ` +
        `${reports.duplicates}, evidence links lost ${reports.evidenceLinksLost}; left by the kill: ` +
        `${leftByKill?.bytesWithoutRow} orphan bytes, ${leftByKill?.temporaryParts} upload parts; after the ` +
        `restart: orphan bytes ${files.bytesWithoutRow}, rows without bytes ${files.rowsWithoutBytes}, ` +
        `upload parts ${files.temporaryParts}`,
    );
    for (const line of unexpected.slice(0, 3)) console.info(`          unexpected answer: ${line}`);
  }

  // Every report queued one notice mail in its own transaction; after the last restart all must go out.
  const mails = await waitFor(
    () => outboxState(chaos.databaseUrl, chaos.smtp.received, chaos.mailHost, `template = 'new_case'`),
    (state) => state.pending === 0,
    options.mailBoundMs,
  );
  const [reportCount] = await sql<{ n: string }>(
    chaos.databaseUrl,
    `SELECT count(*) AS n FROM reports WHERE idempotency_key LIKE 'chaos-r%'`,
  );
  const sorted = [...restartMs].sort((a, b) => a - b);
  console.info(
    `totals: acknowledged ${totals.acknowledged}/${options.rounds * reporters.length}, unacknowledged at ` +
      `the kills ${totals.unacknowledgedAtKill}, requests ${totals.attempts}, restart median ` +
      `${sorted[Math.floor(sorted.length / 2)] ?? 0} ms`,
  );
  console.info(
    `reports: lost ${totals.lost}, duplicates ${totals.duplicates}, keys without report ` +
      `${totals.missingKeys}, evidence links lost ${totals.evidenceLinksLost}, unexpected answers ` +
      `${totals.unexpected}`,
  );
  console.info(
    `files: the kills left ${totals.leftBytes} orphan bytes and ${totals.leftParts} upload parts; after ` +
      `the restarts' sweeps: orphan bytes ${totals.bytesWithoutRow}, rows without bytes ` +
      `${totals.rowsWithoutBytes}, upload parts ${totals.temporaryParts}`,
  );
  console.info(
    `outbox: ${mails.value.total} notice mails for ${reportCount?.n} reports; sent ${mails.value.sent} ` +
      `(received by SMTP ${mails.value.sent - mails.value.sentButNotReceived}, twice ${mails.value.redelivered}), ` +
      `stuck ${mails.value.pending}, failed ${mails.value.failed}; all out ${(mails.ms / 1000).toFixed(1)} s ` +
      `after the last restart (bound ${options.mailBoundMs / 1000} s)`,
  );
  expect(failures, 'acknowledged reports lost', totals.lost);
  expect(failures, 'duplicate reports', totals.duplicates);
  expect(failures, 'keys without a report', totals.missingKeys);
  expect(failures, 'evidence links lost', totals.evidenceLinksLost);
  expect(failures, 'clients never acknowledged', totals.unresolved);
  expect(failures, 'unexpected answers (not 201/503)', totals.unexpected);
  expect(failures, 'orphan bytes', totals.bytesWithoutRow);
  expect(failures, 'rows without bytes', totals.rowsWithoutBytes);
  expect(failures, 'upload parts left', totals.temporaryParts);
  expect(failures, 'notice mails', mails.value.total, Number(reportCount?.n));
  expect(failures, 'outbox mails stuck', mails.value.pending);
  expect(failures, 'outbox mails failed', mails.value.failed);
  expect(failures, 'sent mails the SMTP server never got', mails.value.sentButNotReceived);
  return verdict('SIGKILL under concurrent submissions', failures);
}

/** Whether an error body is the clean one: our code and a Korean message, nothing from the inside. */
function isCleanUnavailable(answer: Answer): boolean {
  const body = answer.body as { code?: unknown; message?: unknown } | undefined;
  return (
    answer.status === 503 &&
    body?.code === 'SERVICE_UNAVAILABLE' &&
    typeof body.message === 'string' &&
    /[가-힣]/.test(body.message) &&
    !/ECONN|stack|postgres|pg_|at \w+ \(|terminat/i.test(answer.text)
  );
}

/** 2. PostgreSQL stopped with `-m immediate` under load: 503s, no crash, recovery. */
export async function stopDatabaseUnderLoad(
  chaos: Chaos,
  options: { clients: number; downSeconds: number; recoveryBoundMs: number },
): Promise<boolean> {
  console.info(
    `\n== 2. PostgreSQL stopped with -m immediate under load (${options.clients} clients, down ${options.downSeconds} s) ==`,
  );
  const failures: string[] = [];
  const pidBefore = chaos.api.pid;
  type Phase = 'before' | 'down' | 'after';
  let phase: Phase = 'before';
  const tally: Record<Phase, Map<string, number>> = {
    before: new Map(),
    down: new Map(),
    after: new Map(),
  };
  const dirty: string[] = [];
  const count = (label: string) => tally[phase].set(label, (tally[phase].get(label) ?? 0) + 1);
  let stop = false;
  let firstSuccessAfter = 0;
  let upAgainAt = 0;
  const reporters = chaos.accounts.reporters.slice(0, options.clients);
  const acks: Acknowledged[] = [];
  const ackOwners = new Map<string, Reporter>();

  const worker = async (reporter: Reporter, index: number) => {
    let sequence = 0;
    let key = `chaos-db-c${index}-0`;
    // Writes and reads alternate; a write not acknowledged is tried again under the same key.
    for (let turn = 0; !stop; turn += 1) {
      const isWrite = turn % 2 === 0;
      const t0 = Date.now();
      try {
        const answer = isWrite
          ? await submitReport(chaos.api.base, reporter, key)
          : await call(chaos.api.base, 'GET', '/api/v1/report/', { cookie: reporter.cookie });
        if (answer.status === 200 || answer.status === 201) {
          count('2xx');
          if (phase === 'after' && !firstSuccessAfter) firstSuccessAfter = Date.now() - upAgainAt;
        } else if (isCleanUnavailable(answer)) count('clean 503');
        else {
          count(`${answer.status}`);
          if (dirty.length < 3) dirty.push(`${answer.status} ${answer.text.slice(0, 160)}`);
        }
        if (isWrite && answer.status === 201) {
          acks.push({ key, id: (answer.body as { id: string }).id });
          ackOwners.set((answer.body as { id: string }).id, reporter);
          sequence += 1;
          key = `chaos-db-c${index}-${sequence}`;
        }
      } catch (error) {
        const isTimeout = (error as Error).name === 'TimeoutError';
        count(isTimeout ? `hang > ${Date.now() - t0} ms` : 'connection error');
      }
      await sleep(phase === 'down' ? 100 : 20);
    }
  };
  const workers = reporters.map((reporter, i) => worker(reporter, i));

  await sleep(2000);
  // A manager watching a case live: the stream opened before the outage must carry changes after it.
  await waitFor(
    async () => acks.length,
    (n) => n > 0,
    10_000,
  );
  const watched = acks[0];
  const watch = watched ? watchCase(chaos.api.base, chaos.accounts.manager, watched.id) : undefined;
  await waitFor(
    async () => watch?.states.length ?? 0,
    (n) => n > 0,
    5000,
  );
  phase = 'down';
  chaos.postgres.stopImmediately();
  const downStarted = Date.now();
  const readyWhileDown: Answer[] = [];
  while (Date.now() - downStarted < options.downSeconds * 1000) {
    try {
      readyWhileDown.push(await call(chaos.api.base, 'GET', '/api/ready'));
    } catch {
      // counted below as not 503
    }
    await sleep(500);
  }
  const aliveWhileDown = chaos.api.pid === pidBefore && pidBefore !== undefined;
  chaos.postgres.start();
  upAgainAt = Date.now();
  phase = 'after';
  const ready = await waitFor(
    async () => {
      try {
        return (await call(chaos.api.base, 'GET', '/api/ready')).status;
      } catch {
        return 0;
      }
    },
    (status) => status === 200,
    options.recoveryBoundMs,
  );
  await waitFor(
    async () => firstSuccessAfter,
    (ms) => ms > 0,
    options.recoveryBoundMs,
  );
  // A change after the recovery: the reporter writes to the manager.
  let liveUpdateMs = -1;
  if (watch && watched) {
    const statesBefore = watch.states.length;
    const posted = Date.now();
    await waitFor(
      async () => {
        try {
          return (
            await call(chaos.api.base, 'POST', `/api/v1/report/${watched.id}/messages`, {
              cookie: ackOwners.get(watched.id)!.cookie,
              json: { body: '복구 후 메시지입니다.' },
            })
          ).status;
        } catch {
          return 0;
        }
      },
      (status) => status === 201 || status === 200,
      10_000,
    );
    const update = await waitFor(
      async () => watch.states.length,
      (n) => n > statesBefore,
      10_000,
    );
    if (update.met) liveUpdateMs = Date.now() - posted;
    console.info(
      `live case view opened before the outage: ${update.met ? `update arrived ${liveUpdateMs} ms after a change` : watch.ended ? 'stream ended (the browser reconnects)' : 'no update within 10 s'}`,
    );
    if (!update.met && !watch.ended) failures.push('the live case view stayed silent after the recovery');
    await watch.stop();
  }
  await sleep(3000);
  stop = true;
  await Promise.all(workers);
  const aliveAfter = chaos.api.pid === pidBefore;

  const readyStatuses = new Map<number, number>();
  for (const answer of readyWhileDown)
    readyStatuses.set(answer.status, (readyStatuses.get(answer.status) ?? 0) + 1);
  const format = (map: Map<string | number, number>) =>
    [...map.entries()].map(([label, n]) => `${label}: ${n}`).join(', ') || 'none';
  for (const p of ['before', 'down', 'after'] as const) console.info(`${p.padEnd(6)} ${format(tally[p])}`);
  for (const line of dirty) console.info(`       not clean: ${line}`);
  console.info(
    `/api/ready while down: ${format(readyStatuses)}; ready again ${ready.ms} ms after the restart, ` +
      `first normal request succeeded after ${firstSuccessAfter} ms; same PID ${pidBefore} throughout: ` +
      `${aliveWhileDown && aliveAfter}`,
  );
  const reports = await reportState(
    chaos.databaseUrl,
    acks.map((ack) => ack.key),
    acks,
  );
  console.info(
    `submissions: ${acks.length} acknowledged, lost ${reports.lost}, duplicates ${reports.duplicates}`,
  );
  const notClean = [...tally.down.entries(), ...tally.after.entries(), ...tally.before.entries()]
    .filter(([label]) => label !== '2xx' && label !== 'clean 503')
    .reduce((sum, [, n]) => sum + n, 0);
  expect(failures, 'answers other than 2xx or a clean 503 (500s, hangs, errors)', notClean);
  if ((tally.down.get('clean 503') ?? 0) === 0) failures.push('no clean 503 while PostgreSQL was down');
  if (!readyWhileDown.length || readyWhileDown.some((answer) => answer.status !== 503))
    failures.push('/api/ready did not answer 503 throughout the outage');
  if (!aliveWhileDown || !aliveAfter) failures.push('the API process did not survive');
  if (!ready.met || !firstSuccessAfter) failures.push('no recovery within the bound');
  expect(failures, 'acknowledged reports lost', reports.lost);
  expect(failures, 'duplicate reports', reports.duplicates);
  return verdict('PostgreSQL stopped with -m immediate', failures);
}

/** 3. The SMTP server away for a while: every mail queued meanwhile goes out once it is back. */
export async function smtpOutage(
  chaos: Chaos,
  options: { downSeconds: number; mails: number; deliveryBoundMs: number },
): Promise<boolean> {
  console.info(`\n== 3. SMTP server down for ${options.downSeconds} s ==`);
  const failures: string[] = [];
  const [{ now: since } = { now: new Date() }] = await sql<{ now: Date }>(
    chaos.databaseUrl,
    'SELECT now() AS now',
  );
  await chaos.smtp.stop();
  const downStarted = Date.now();
  const answers: number[] = [];
  // Mails caused by people, spread over the outage: registrations and password reset requests.
  const spacing = (options.downSeconds * 1000 * 0.6) / options.mails;
  for (let i = 0; i < options.mails; i += 1) {
    const answer =
      i % 2 === 0
        ? await call(chaos.api.base, 'POST', '/api/v1/user/', {
            json: {
              email: `new${i}@chaos.example`,
              password: '새로운-혼돈-비밀번호-2026!',
              name: `새직원${i}`,
            },
          })
        : await call(chaos.api.base, 'POST', '/api/v1/user/password/send-reset-email', {
            json: { email: chaos.accounts.reporters[i]!.email },
          });
    answers.push(answer.status);
    await sleep(spacing);
  }
  const whileDown = await outboxState(
    chaos.databaseUrl,
    chaos.smtp.received,
    chaos.mailHost,
    'created_at >= $1',
    [since],
  );
  const [attempts] = await sql<{ n: string }>(
    chaos.databaseUrl,
    `SELECT coalesce(sum(attempts), 0) AS n FROM mail_outbox WHERE created_at >= $1`,
    [since],
  );
  await sleep(Math.max(0, options.downSeconds * 1000 - (Date.now() - downStarted)));
  await chaos.smtp.start();
  const after = await waitFor(
    () => outboxState(chaos.databaseUrl, chaos.smtp.received, chaos.mailHost, 'created_at >= $1', [since]),
    (state) => state.pending === 0,
    options.deliveryBoundMs,
  );
  const accepted = answers.filter((status) => status === 201 || status === 202).length;
  console.info(
    `requests while down: ${accepted}/${answers.length} accepted; mails queued ${whileDown.total}, ` +
      `sent while down ${whileDown.sent}, failed attempts while down ${Number(attempts?.n) - whileDown.sent}`,
  );
  console.info(
    `after the SMTP server returned: sent ${after.value.sent}/${after.value.total} in ${(after.ms / 1000).toFixed(1)} s ` +
      `(bound ${options.deliveryBoundMs / 1000} s), received by SMTP ${after.value.sent - after.value.sentButNotReceived}, ` +
      `stuck ${after.value.pending}, failed for good ${after.value.failed}`,
  );
  expect(failures, 'requests refused while SMTP was down', answers.length - accepted);
  if (whileDown.total < options.mails) failures.push(`only ${whileDown.total} mails queued`);
  expect(failures, 'mails sent while SMTP was down', whileDown.sent);
  expect(failures, 'mails stuck', after.value.pending);
  expect(failures, 'mails failed for good', after.value.failed);
  expect(failures, 'sent mails the SMTP server never got', after.value.sentButNotReceived);
  return verdict('SMTP server outage', failures);
}

/** Whether a new TCP connection to the port is refused. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** 4. SIGTERM while slow uploads and submissions are in flight: they finish, nothing new gets in, exit 0. */
export async function drainOnSigterm(chaos: Chaos, options: { inFlight: number }): Promise<boolean> {
  console.info(`\n== 4. SIGTERM with ${options.inFlight} slow requests in flight ==`);
  const failures: string[] = [];
  const reporters = chaos.accounts.reporters;
  const requests = Array.from({ length: options.inFlight }, (_, i) => {
    const reporter = reporters[i % reporters.length]!;
    const durationMs = 2000 + randomInt(1000);
    if (i % 2 === 0) {
      return {
        kind: 'upload',
        ...slowRequest(
          chaos.api.port,
          '/api/v1/file/',
          { ...multipartBody(`drain${i}`), cookie: reporter.cookie },
          durationMs,
        ),
      };
    }
    return {
      kind: 'report',
      ...slowRequest(
        chaos.api.port,
        '/api/v1/report/',
        {
          contentType: 'application/json',
          bytes: Buffer.from(JSON.stringify(reportForm())),
          cookie: reporter.cookie,
          extraHeaders: { 'idempotency-key': `chaos-drain-${i}` },
        },
        durationMs,
      ),
    };
  });
  await Promise.all(requests.map((request) => request.started));
  await sleep(500);
  const signalledAt = Date.now();
  const child = chaos.api.child!;
  const exited = chaos.api.exited();
  child.kill('SIGTERM');
  await sleep(200);
  const refusedAfter = await connectionRefused(chaos.api.port);
  const outcomes = await Promise.allSettled(requests.map((request) => request.done));
  const exitCode = await Promise.race([exited, sleep(30_000).then(() => 'still running after 30 s')]);
  const exitMs = Date.now() - signalledAt;
  const statuses = outcomes.map((outcome) =>
    outcome.status === 'fulfilled'
      ? String(outcome.value.status)
      : `error ${(outcome.reason as Error).message}`,
  );
  const completed = statuses.filter((status) => status === '201').length;
  const files = await fileStoreState(chaos.databaseUrl, chaos.dataDir);
  const drainKeys = requests.flatMap((request, i) => (request.kind === 'report' ? [`chaos-drain-${i}`] : []));
  const [stored] = await sql<{ n: string }>(
    chaos.databaseUrl,
    'SELECT count(*) AS n FROM reports WHERE idempotency_key = ANY($1)',
    [drainKeys],
  );
  const tally = new Map<string, number>();
  for (const status of statuses) tally.set(status, (tally.get(status) ?? 0) + 1);
  console.info(
    `in flight at SIGTERM: ${requests.length} (${requests.length - drainKeys.length} uploads, ${drainKeys.length} reports); ` +
      `answers ${[...tally.entries()].map(([s, n]) => `${s}: ${n}`).join(', ')}; reports stored ${stored?.n}/${drainKeys.length}`,
  );
  console.info(
    `new connection 200 ms after SIGTERM refused: ${refusedAfter}; exit code ${exitCode} after ${exitMs} ms; ` +
      `orphan bytes ${files.bytesWithoutRow}, rows without bytes ${files.rowsWithoutBytes}`,
  );
  expect(failures, 'in-flight requests not completed with 201', requests.length - completed);
  expect(failures, 'drained reports missing', drainKeys.length - Number(stored?.n));
  if (!refusedAfter) failures.push('a new connection was accepted after SIGTERM');
  if (exitCode !== 0) failures.push(`exit code ${exitCode}`);
  expect(failures, 'orphan bytes', files.bytesWithoutRow);
  expect(failures, 'rows without bytes', files.rowsWithoutBytes);
  return verdict('SIGTERM drains in-flight requests', failures);
}
