import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import type { TFunction } from 'i18next';
import { RequestError, toRequestError } from './request-error';

const FIELD_KEYS = new Map<string, string>();

/**
 * Makes a catalogue's messages translatable by `fieldMessage`, under `validation.<key>`. FIELD_MESSAGES_KO is
 * known from the start; a catalogue that only some forms show (the manager's dialogs) is added when they load.
 */
export function registerFieldMessages(messages: Readonly<Record<string, unknown>>): void {
  for (const [key, text] of Object.entries(messages)) {
    if (typeof text === 'string') FIELD_KEYS.set(text, key);
  }
}
registerFieldMessages(FIELD_MESSAGES_KO);

/**
 * The shared zod schemas carry their Korean message (one catalogue for client and server). In Korean the
 * message is shown as is; in another language it is looked up back to its key and translated.
 */
export function fieldMessage(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = FIELD_KEYS.get(message);
  if (key) return t(`validation.${key}`, { defaultValue: message });
  const tooLong = /^(\d+)자 이하로 입력해주세요\.$/.exec(message);
  if (tooLong) return t('validation.tooLong', { max: Number(tooLong[1]), defaultValue: message });
  const tooMany = /^최대 (\d+)개까지 입력할 수 있습니다\.$/.exec(message);
  if (tooMany) return t('validation.tooMany', { max: Number(tooMany[1]), defaultValue: message });
  return message;
}

/** A call's error in the current language: the catalogue text by code, else the message the error carries. */
export function errorText(t: TFunction, error: unknown): string {
  const requestError = error instanceof RequestError ? error : toRequestError(error);
  return t(`errors.${requestError.code}`, { defaultValue: requestError.message });
}
