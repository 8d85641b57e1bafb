import { readDraftField, writeDraftField } from '../../lib/draft-storage';

/** The optional private contact address, kept with the draft (and removed with it) until submission. */
const CONTACT_FIELD = 'contact_email';

export const readContactEmail = (): string => {
  const stored = readDraftField<unknown>(CONTACT_FIELD);
  return typeof stored === 'string' ? stored : '';
};

export const writeContactEmail = (value: string): void => writeDraftField(CONTACT_FIELD, value);

/** Empty is fine (the address is optional); otherwise one plausible address, as the server will check. */
export const isContactEmailValid = (value: string): boolean =>
  value.trim() === '' || (value.trim().length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()));
