import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { draftStorage } from '../lib/draft-storage';

const STEP_KEY = 'step';
/** Kept with the draft so a retried submission of the same draft can never file a second report. */
export const IDEMPOTENCY_KEY = 'idempotency_key';

/** A form kept as a draft: `last_edit` is stamped on every change and stored beside the fields. */
export interface DraftForm {
  last_edit: string | null;
}

export interface DraftStoreOptions<F extends DraftForm, K extends keyof F & string> {
  /** Every key of the draft is `prefix + name` in localStorage (R-WIZ-5), so clear needs no field list. */
  prefix: string;
  /** The fields the draft writes, reads back and empties on reset; `last_edit` is kept apart. */
  fields: readonly K[];
  /** A fresh form: where loading starts, and what clear leaves. */
  initial: () => F;
  /**
   * Whether a stored value may be read back into `field`. One it refuses (an older version's, a hand edit)
   * is dropped rather than shown, or sent to the server. Every value is accepted when omitted.
   */
  accepts?: (field: K, value: unknown) => boolean;
  /** Fields reset leaves as they are (the reporter's report_type). */
  keepOnReset?: readonly K[];
}

export interface DraftState<F extends DraftForm, K extends keyof F & string> {
  form: F;
  /** The current step; the number of steps is the review screen. Persisted so a reload resumes there. */
  step: number;
  idempotencyKey: string | null;
  /** docs/requirements.md R-WIZ-7: set while a submission is in flight; disables the submit button. Not persisted. */
  isSubmitting: boolean;
  /** Per-field messages of the server's last 400 VALIDATION_ERROR, keyed by dotted path. Not persisted. */
  serverErrors: Record<string, string>;
  /** Set by a successful submission; the page clears the draft once it has been left. Not persisted. */
  isSubmitted: boolean;
  setField: <P extends K>(field: P, value: F[P]) => void;
  setStep: (step: number) => void;
  /** The draft's Idempotency-Key, created on first use and kept until reset or clear. */
  ensureIdempotencyKey: () => string;
  setSubmitting: (isSubmitting: boolean) => void;
  setServerErrors: (errors: Record<string, string>) => void;
  markSubmitted: () => void;
  /** R-WIZ-5: empties every field but those kept, forgets the key, and returns to the first step. */
  reset: () => void;
  /** After a submission: every key under the prefix leaves this device, kept fields included. */
  clear: () => void;
  /** Re-reads storage, e.g. after logout removed the draft keys. */
  reload: () => void;
}

type Setter<S> = StoreApi<S>['setState'];
type Getter<S> = StoreApi<S>['getState'];

/** The stored form: a fresh one with each accepted field, and `last_edit` when it is a date string. */
export function loadDraftForm<F extends DraftForm, K extends keyof F & string>(
  options: DraftStoreOptions<F, K>,
): F {
  const storage = draftStorage(options.prefix);
  const form = options.initial();
  for (const field of options.fields) {
    const stored = storage.read<unknown>(field);
    if (stored === undefined || (options.accepts && !options.accepts(field, stored))) continue;
    form[field] = stored as F[K];
  }
  const lastEdit = storage.read<unknown>('last_edit');
  if (typeof lastEdit === 'string') form.last_edit = lastEdit;
  return form;
}

/** Drops the server's messages for a field (and its nested paths) once it is edited. */
function withoutErrorsFor(errors: Record<string, string>, field: string): Record<string, string> {
  const entries = Object.entries(errors).filter(([path]) => path !== field && !path.startsWith(`${field}.`));
  return entries.length === Object.keys(errors).length ? errors : Object.fromEntries(entries);
}

/**
 * A zustand store of one form draft kept field by field in localStorage: the reporter's wizard and each
 * invitee's statement. `extend` adds what one draft alone needs (the reporter's report type switch, the
 * invitee's kind) with the same `set` and `get`. Imports no zod: the router guard reads the reporter's
 * store on every page, the landing page's first load included.
 */
export function createDraftStore<
  F extends DraftForm,
  K extends keyof F & string,
  X extends object = Record<never, never>,
>(
  options: DraftStoreOptions<F, K>,
  extend?: (set: Setter<DraftState<F, K> & X>, get: Getter<DraftState<F, K> & X>) => X,
): UseBoundStore<StoreApi<DraftState<F, K> & X>> {
  const storage = draftStorage(options.prefix);
  const keep = new Set<K>(options.keepOnReset ?? []);

  const loadStep = (): number => {
    const stored = storage.read<unknown>(STEP_KEY);
    return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : 0;
  };
  const loadIdempotencyKey = (): string | null => {
    const stored = storage.read<unknown>(IDEMPOTENCY_KEY);
    return typeof stored === 'string' && stored ? stored : null;
  };

  return create<DraftState<F, K> & X>()((set, get) => {
    // The draft's own state never touches what `extend` adds, and TypeScript cannot see that through X.
    const put = set as unknown as Setter<DraftState<F, K>>;
    const base: DraftState<F, K> = {
      form: loadDraftForm(options),
      step: loadStep(),
      idempotencyKey: loadIdempotencyKey(),
      isSubmitting: false,
      serverErrors: {},
      isSubmitted: false,
      setField: (field, value) => {
        const lastEdit = new Date().toISOString();
        storage.write(field, value);
        storage.write('last_edit', lastEdit);
        put((state) => ({
          form: { ...state.form, [field]: value, last_edit: lastEdit },
          serverErrors: withoutErrorsFor(state.serverErrors, field),
        }));
      },
      setStep: (step) => {
        storage.write(STEP_KEY, step);
        put({ step });
      },
      ensureIdempotencyKey: () => {
        const existing = get().idempotencyKey;
        if (existing) return existing;
        const key = crypto.randomUUID();
        storage.write(IDEMPOTENCY_KEY, key);
        put({ idempotencyKey: key });
        return key;
      },
      setSubmitting: (isSubmitting) => put({ isSubmitting }),
      setServerErrors: (serverErrors) => put({ serverErrors }),
      markSubmitted: () => put({ isSubmitted: true }),
      reset: () => {
        const current = get().form;
        const form = options.initial();
        for (const field of options.fields) {
          if (keep.has(field)) form[field] = current[field];
          // Written rather than removed, so storage agrees with the form and a reload brings nothing back.
          else storage.write(field, form[field]);
        }
        form.last_edit = new Date().toISOString();
        storage.write('last_edit', form.last_edit);
        storage.write(STEP_KEY, 0);
        storage.remove(IDEMPOTENCY_KEY);
        put({ form, step: 0, idempotencyKey: null, serverErrors: {} });
      },
      clear: () => {
        storage.clear();
        put({
          form: options.initial(),
          step: 0,
          idempotencyKey: null,
          serverErrors: {},
          isSubmitted: false,
        });
      },
      reload: () =>
        put({
          form: loadDraftForm(options),
          step: loadStep(),
          idempotencyKey: loadIdempotencyKey(),
          serverErrors: {},
        }),
    };
    return { ...base, ...(extend?.(set, get) ?? ({} as X)) };
  });
}
