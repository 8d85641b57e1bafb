import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import { sealTextIn } from '../encryption/codec.ts';
import type { RenderedMail } from './templates.ts';

/** Anything that can run an insert: the database or an open transaction. */
type Executor = Pick<Db, 'insert' | 'execute'>;

/** An outbox row's id and its sealed fields, each sealed under its own column and the row's id. */
async function sealedMail(executor: Executor, to: string, mail: RenderedMail) {
  const id = randomUUID();
  const seal = (field: 'to' | 'subject' | 'text' | 'html', value: string) =>
    sealTextIn(executor, null, `mail_outbox.${field}`, id, value);
  return {
    id,
    to: await seal('to', to),
    subject: await seal('subject', mail.subject),
    text: await seal('text', mail.text),
    html: await seal('html', mail.html),
  };
}

/**
 * Queues a mail. Call it with the transaction of the change that causes the mail, so the mail exists exactly
 * when the change does; the worker delivers it later. The address is sealed with the platform key (it may be
 * an invitee's, sealed in `invitations.email` too), and so is the mail itself (names, case numbers, one-time
 * links): both are opened only by the worker that sends them.
 */
export async function enqueueMail(
  executor: Executor,
  template: string,
  to: string,
  mail: RenderedMail,
  options: { notBefore?: Date } = {},
): Promise<string> {
  const [row] = await executor
    .insert(mailOutbox)
    .values({
      template,
      ...(await sealedMail(executor, to, mail)),
      ...(options.notBefore ? { nextAttemptAt: options.notBefore } : {}),
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

/**
 * Queues one mail for each recipient in one statement: for a change that tells several people at once (a new
 * case to every handler), whose transaction may hold a lock until it commits (decision 0024).
 */
export async function enqueueMails(
  executor: Executor,
  template: string,
  mails: { to: string; mail: RenderedMail }[],
): Promise<void> {
  if (mails.length === 0) return;
  const rows = [];
  for (const { to, mail } of mails) rows.push({ template, ...(await sealedMail(executor, to, mail)) });
  await executor.insert(mailOutbox).values(rows);
}
