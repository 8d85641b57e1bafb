import { z } from 'zod';
import { epochSeconds } from './common.ts';

/** /api/v1/intake/…: anonymous drafts, through a company's public link or a member's session (decision 0005). */
export const intakeCode = z
  .string()
  .trim()
  .min(1, '접수 코드를 입력해주세요.')
  .max(64, '접수 코드가 올바르지 않습니다.')
  .regex(/^[A-Za-z0-9-]+$/, '접수 코드가 올바르지 않습니다.');

export const intakeParams = z.object({ code: intakeCode });

export const intakeBody = z.object({
  code: intakeCode.optional(),
  captcha: z.string().max(10_000).optional(),
});
export type IntakeBody = z.infer<typeof intakeBody>;

export const intakeSessionSchema = z.object({
  token: z.string().describe('send as the X-Intake-Token header on uploads and the submission'),
  expires: epochSeconds,
  company: z.object({ name: z.string() }),
});
export type IntakeSession = z.infer<typeof intakeSessionSchema>;

export const intakeInfoSchema = z.object({
  company: z.object({ name: z.string() }),
  help_text: z.string(),
  notice_contact: z.string(),
});
export type IntakeInfo = z.infer<typeof intakeInfoSchema>;
