import type { FileView } from '@ansim/shared/contract/file';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { RequestError } from '../../lib/request-error';
import { EvidenceField, type EvidenceFieldProps } from './evidence-field';

beforeAll(async () => {
  await initI18n();
  // The reporter's copy, which the wizard's pages load with themselves.
  await import('../../locales/report-copy');
});
afterEach(cleanup);

const stored = (id: string, name: string): FileView => ({ id, name, size: 2048 }) as FileView;

/** The field over a list kept the way the stores keep it: the latest value, edited by a function. */
function renderField(props: Partial<EvidenceFieldProps> = {}) {
  let ids: string[] = [];
  const files: FileView[] = [];
  const editIds = vi.fn((change: (current: string[]) => string[]) => {
    ids = change(ids);
    view.rerender(field());
  });
  const field = () => (
    <EvidenceField
      path="reference_evidences"
      ids={ids}
      editIds={editIds}
      files={files}
      upload={async (file) => {
        const result = stored(`id-${file.name}`, file.name);
        files.push(result);
        return result;
      }}
      remove={async () => undefined}
      copy="invitation.evidence"
      help="도움말"
      testIdPrefix="invitee-evidence"
      inputTestId="input"
      finishedAs="caption"
      {...props}
    />
  );
  const view = render(field());
  const pick = (...names: string[]) =>
    act(async () => {
      fireEvent.change(screen.getByTestId('input'), {
        target: { files: names.map((name) => new File(['x'], name)) },
      });
    });
  return { pick, editIds, ids: () => ids, files };
}

describe('the shared evidence field', () => {
  it('adds each uploaded file to the latest list, even when uploads finish together', async () => {
    const field = renderField();
    await field.pick('a.pdf', 'b.pdf');
    await waitFor(() => expect(field.ids()).toEqual(['id-a.pdf', 'id-b.pdf']));
    const items = screen.getAllByTestId('invitee-evidence-item');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('a.pdf2.0 KB · 올림 완료'),
      expect.stringContaining('b.pdf2.0 KB · 올림 완료'),
    ]);
  });

  it('shows the server’s own message when it refuses a file, and keeps the list as it was', async () => {
    const refusal = new RequestError(415, {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: '허용되지 않는 파일 형식입니다.',
    });
    const field = renderField({ upload: () => Promise.reject(refusal) });
    await field.pick('virus.exe');
    const alert = await screen.findByTestId('invitee-evidence-error');
    expect(alert.textContent).toContain('virus.exe');
    expect(alert.textContent).toContain('허용되지 않는 파일 형식입니다.');
    expect(field.editIds).not.toHaveBeenCalled();
  });

  it('warns a named reporter, under the file, that its hidden data could not be removed', async () => {
    const field = renderField({
      copy: 'evidence',
      testIdPrefix: 'evidence',
      warnsUnremovable: true,
      upload: async (file) => {
        const result = {
          ...stored(`id-${file.name}`, file.name),
          metadata: file.name.endsWith('.hwp') ? 'unremovable' : 'removed',
        } as FileView;
        field.files.push(result);
        return result;
      },
    });
    await field.pick('진술서.hwp', '캡처.png');
    await waitFor(() => expect(field.ids()).toHaveLength(2));
    const warnings = screen.getAllByTestId('evidence-metadata-kept');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.closest('li')?.textContent).toContain('진술서.hwp');
    expect(warnings[0]!.textContent).toBe(
      '이 파일에서는 작성자·촬영 위치 같은 숨은 정보를 지우지 못했습니다. 담당자가 파일을 열면 그 정보를 그대로 볼 수 있습니다.',
    );
  });

  it('drops an upload silently when the page explains the failure elsewhere', async () => {
    const field = renderField({
      upload: () => Promise.reject(new Error('expired')),
      isExplainedElsewhere: () => true,
    });
    await field.pick('a.pdf');
    await waitFor(() => expect(screen.queryByTestId('invitee-evidence-progress')).toBeNull());
    expect(screen.queryByTestId('invitee-evidence-error')).toBeNull();
    expect(field.editIds).not.toHaveBeenCalled();
  });
});
