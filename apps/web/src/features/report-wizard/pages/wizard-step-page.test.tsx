import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { useReportForm } from '../../../stores/report-form-store';
import WizardStepPage from './wizard-step-page';

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => useReportForm.getState().clear());
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const renderStep = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <WizardStepPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('wizard step page', () => {
  it('blocks Next on an invalid step and shows the Korean messages on the fields', () => {
    useReportForm.getState().setReportType('brief');
    renderStep();
    fireEvent.click(screen.getByRole('button', { name: '다음 단계' }));
    expect(useReportForm.getState().step).toBe(0);
    expect(screen.getByRole('alert').textContent).toContain('확인이 필요한 항목이 3개');
    const name = screen.getByRole('textbox', { name: /^이름/ });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText('필수 입력 항목입니다.')).toHaveLength(3);
  });

  it('moves on once the step is valid, and the step is kept in the draft', async () => {
    useReportForm.getState().setReportType('anonym');
    renderStep();
    expect(screen.queryByRole('textbox', { name: /^이름/ })).toBeNull();
    expect(screen.getByTestId('anonym-notice').textContent).toContain(
      '회사는 누가 신고했는지 알 수 없습니다',
    );
    fireEvent.click(screen.getByRole('radio', { name: '피해자 본인' }));
    fireEvent.change(screen.getByRole('textbox', { name: /행위자 이름/ }), { target: { value: '김부장' } });
    fireEvent.click(screen.getByRole('button', { name: '다음 단계' }));
    expect(useReportForm.getState().step).toBe(1);
    expect(localStorage.getItem('ansim.reportDraft.step')).toBe('1');
    const acts = screen.getByTestId('wizard-step-acts');
    expect(within(acts).getByRole('heading', { level: 2 }).textContent).toBe('괴롭힘 행위 및 증거');
    // The later steps are MUI forms loaded with the theme when reached (decision 0025).
    await waitFor(() => expect(within(acts).queryByRole('progressbar')).toBeNull(), { timeout: 20_000 });
    expect(within(acts).getByRole('button', { name: '괴롭힘 행위 추가' })).toBeTruthy();
  });

  it('says 신고 유형을 선택해주세요. when no type is chosen', () => {
    renderStep();
    expect(screen.getByRole('alert').textContent).toBe('신고 유형을 선택해주세요.');
  });
});
