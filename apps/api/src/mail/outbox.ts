import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import type { RenderedMail } from './templates.ts';

/** Anything that can run an insert: the database or an open transaction. */
type Executor = Pick<Db, 'insert'>;

/**
 * Queues a mail. Call it with the transaction of the change that causes the mail, so the mail exists exactly
 * when the change does; the worker delivers it later.
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
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(options.notBefore ? { nextAttemptAt: options.notBefore } : {}),
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}
