import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDraftStore, IDEMPOTENCY_KEY, loadDraftForm } from './draft-store';

interface NoteForm {
  kind: string;
  title: string;
  tags: string[];
  files: string[] | null;
  last_edit: string | null;
}
type NoteField = Exclude<keyof NoteForm, 'last_edit'>;

const PREFIX = 'test.noteDraft.';
const options = {
  prefix: PREFIX,
  fields: ['kind', 'title', 'tags', 'files'] as const satisfies readonly NoteField[],
  initial: (): NoteForm => ({ kind: '', title: '', tags: [], files: null, last_edit: null }),
  accepts: (field: NoteField, value: unknown) =>
    field === 'tags' ? Array.isArray(value) : field !== 'kind' || value === 'memo' || value === 'letter',
  keepOnReset: ['kind'] as const,
};
const newStore = () => createDraftStore<NoteForm, NoteField>(options);

const stored = (name: string) => {
  const raw = localStorage.getItem(PREFIX + name);
  return raw === null ? undefined : JSON.parse(raw);
};
const keys = () => Object.keys({ ...localStorage }).sort();

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('createDraftStore', () => {
  it('writes only the edited field and last_edit, each under the prefix', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-02-01T09:00:00Z'));
    const store = newStore();
    store.getState().setField('title', '회의록');
    expect(keys()).toEqual([`${PREFIX}last_edit`, `${PREFIX}title`]);
    expect(stored('title')).toBe('회의록');
    expect(store.getState().form).toMatchObject({ title: '회의록', last_edit: '2026-02-01T09:00:00.000Z' });
  });

  it('reads back accepted values, drops refused ones, and takes last_edit only as a string', () => {
    localStorage.setItem(`${PREFIX}kind`, JSON.stringify('spam'));
    localStorage.setItem(`${PREFIX}title`, JSON.stringify('제목'));
    localStorage.setItem(`${PREFIX}tags`, JSON.stringify('not a list'));
    localStorage.setItem(`${PREFIX}files`, JSON.stringify(['f1']));
    localStorage.setItem(`${PREFIX}last_edit`, JSON.stringify(7));
    localStorage.setItem(`${PREFIX}step`, JSON.stringify(-1));
    localStorage.setItem(`${PREFIX}unknown`, JSON.stringify('x'));
    const store = newStore();
    expect(store.getState().form).toEqual({
      kind: '',
      title: '제목',
      tags: [],
      files: ['f1'],
      last_edit: null,
    });
    expect(store.getState().step).toBe(0);
    expect(loadDraftForm(options)).toEqual(store.getState().form);
  });

  it('keeps the step and the Idempotency-Key across a reload, and refuses a step that is not a count', () => {
    const store = newStore();
    store.getState().setStep(2);
    const key = store.getState().ensureIdempotencyKey();
    expect(store.getState().ensureIdempotencyKey()).toBe(key);
    expect(stored(IDEMPOTENCY_KEY)).toBe(key);
    const again = newStore();
    expect(again.getState().step).toBe(2);
    expect(again.getState().idempotencyKey).toBe(key);
    localStorage.setItem(`${PREFIX}step`, JSON.stringify(1.5));
    again.getState().reload();
    expect(again.getState().step).toBe(0);
  });

  it('drops the server’s messages for an edited field and its nested paths only', () => {
    const store = newStore();
    store.getState().setServerErrors({ 'tags.0': 'x', tags: 'y', title: 'z', tagsExtra: 'w' });
    store.getState().setField('tags', ['a']);
    expect(store.getState().serverErrors).toEqual({ title: 'z', tagsExtra: 'w' });
  });

  it('reset empties all but the kept fields in memory and storage, forgets the key, and goes to step 0', () => {
    const store = newStore();
    store.getState().setField('kind', 'memo');
    store.getState().setField('title', '초안');
    store.getState().setField('files', ['f1']);
    store.getState().setStep(3);
    const key = store.getState().ensureIdempotencyKey();
    store.getState().setServerErrors({ title: 'x' });
    store.getState().reset();
    expect(store.getState()).toMatchObject({
      form: { kind: 'memo', title: '', tags: [], files: null },
      step: 0,
      idempotencyKey: null,
      serverErrors: {},
    });
    expect(store.getState().form.last_edit).not.toBeNull();
    store.getState().reload();
    expect(store.getState().form).toMatchObject({ kind: 'memo', title: '', files: null });
    expect(store.getState().step).toBe(0);
    expect(store.getState().ensureIdempotencyKey()).not.toBe(key);
  });

  it('clear removes every key under its prefix, kept fields and unknown keys included, and no other', () => {
    localStorage.setItem(`${PREFIX}from_an_older_version`, '1');
    localStorage.setItem('test.otherDraft.title', '"다른 초안"');
    const store = newStore();
    store.getState().setField('kind', 'letter');
    store.getState().ensureIdempotencyKey();
    store.getState().setSubmitting(true);
    store.getState().markSubmitted();
    store.getState().clear();
    expect(keys()).toEqual(['test.otherDraft.title']);
    expect(store.getState()).toMatchObject({
      form: options.initial(),
      step: 0,
      idempotencyKey: null,
      isSubmitted: false,
    });
  });

  it('reload follows storage emptied from outside, as logout does', () => {
    const store = newStore();
    store.getState().setField('title', '남은 초안');
    store.getState().setServerErrors({ title: 'x' });
    localStorage.clear();
    store.getState().reload();
    expect(store.getState().form).toEqual(options.initial());
    expect(store.getState().serverErrors).toEqual({});
  });

  it('adds what one draft alone needs through extend, with the same set and get', () => {
    const store = createDraftStore<NoteForm, NoteField, { label: string; retitle: (title: string) => void }>(
      options,
      (set, get) => ({
        label: 'notes',
        retitle: (title) => {
          get().setField('title', title);
          set({ label: `notes: ${title}` });
        },
      }),
    );
    store.getState().retitle('새 제목');
    expect(store.getState().label).toBe('notes: 새 제목');
    expect(stored('title')).toBe('새 제목');
  });
});
