import { afterEach, describe, expect, it } from 'vitest';
import { DRAFT_PREFIX } from '../../lib/draft-storage';
import { clearStatementDraft, createStatementDraftStore, loadStatementDraft } from './statement-draft-store';
import { firstInvalidStep, statementStepErrors, stepOfPath } from './statement-validation';

afterEach(() => localStorage.clear());

const keys = () => Object.keys({ ...localStorage }).sort();

describe('statement draft store', () => {
  it('keeps each field under an invitee prefix of its own kind, never the reporter’s draft keys', () => {
    const store = createStatementDraftStore('defendant');
    store.getState().setField('defendant_opinion', '오해가 있었습니다.');
    store.getState().setStep(1);
    expect(store.getState().form.report_type).toBe('defendant');
    expect(keys()).toEqual([
      'ansim.invitationDraft.defendant.defendant_opinion',
      'ansim.invitationDraft.defendant.last_edit',
      'ansim.invitationDraft.defendant.step',
    ]);
    expect(keys().some((key) => key.startsWith(DRAFT_PREFIX))).toBe(false);
  });

  it('reads a draft back after a reload, only the fields of its kind and of the right shape', () => {
    localStorage.setItem(
      'ansim.invitationDraft.reference.reference_witnessed',
      JSON.stringify('고성을 들었습니다'),
    );
    localStorage.setItem('ansim.invitationDraft.reference.reference_evidences', JSON.stringify(['a']));
    localStorage.setItem('ansim.invitationDraft.reference.reference_memory', JSON.stringify(42));
    localStorage.setItem('ansim.invitationDraft.reference.defendant_opinion', JSON.stringify('다른 종류'));
    localStorage.setItem(`${DRAFT_PREFIX}reference_opinion`, JSON.stringify('신고인 초안'));
    const form = loadStatementDraft('reference');
    expect(form.report_type).toBe('reference');
    expect(form.reference_witnessed).toBe('고성을 들었습니다');
    expect(form.reference_evidences).toEqual(['a']);
    expect(form.reference_memory).toBe('');
    expect(form.defendant_opinion).toBe('');
    expect(form.reference_opinion).toBe('');
  });

  it('clear removes only its own kind’s keys', () => {
    const defendant = createStatementDraftStore('defendant');
    const reference = createStatementDraftStore('reference');
    defendant.getState().setField('reporter_name', '박행위');
    reference.getState().setField('reference_witnessed', '봤습니다');
    localStorage.setItem(`${DRAFT_PREFIX}reporter_name`, JSON.stringify('신고인'));
    defendant.getState().clear();
    expect(defendant.getState().form.reporter_name).toBe('');
    expect(defendant.getState().step).toBe(0);
    expect(keys()).toEqual([
      'ansim.invitationDraft.reference.last_edit',
      'ansim.invitationDraft.reference.reference_witnessed',
      `${DRAFT_PREFIX}reporter_name`,
    ]);
    clearStatementDraft('reference');
    expect(keys()).toEqual([`${DRAFT_PREFIX}reporter_name`]);
  });

  it('drops the server’s message for a field once it is edited', () => {
    const store = createStatementDraftStore('defendant');
    store.getState().setServerErrors({ defendant_opinion: '필수 입력 항목입니다.', reporter_name: 'x' });
    store.getState().setField('defendant_opinion', '의견');
    expect(store.getState().serverErrors).toEqual({ reporter_name: 'x' });
  });
});

describe('statement validation', () => {
  it('asks the accused person for a position and an opinion in step 2, and a name for each witness in step 3', () => {
    const form = loadStatementDraft('defendant');
    expect(statementStepErrors(form, 'defendantInfo')).toEqual({});
    expect(Object.keys(statementStepErrors(form, 'defendantStatement')).sort()).toEqual([
      'defendant_opinion',
      'defendant_truth',
    ]);
    expect(firstInvalidStep('defendant', form)).toBe(1);
    const withWitness = {
      ...form,
      defendant_truth: 'deny' as const,
      defendant_opinion: '사실이 아닙니다.',
      defendant_witnesses: [
        { name: ' ', department: '영업팀', position: '', email: null, email_sent_at: null },
      ],
    };
    expect(statementStepErrors(withWitness, 'witnesses')).toEqual({
      'defendant_witnesses.0.name': '필수 입력 항목입니다.',
    });
    expect(firstInvalidStep('defendant', withWitness)).toBe(2);
  });

  it('asks a witness for what they witnessed', () => {
    const form = loadStatementDraft('reference');
    expect(Object.keys(statementStepErrors(form, 'reference'))).toEqual(['reference_witnessed']);
    expect(firstInvalidStep('reference', { ...form, reference_witnessed: '봤습니다' })).toBeNull();
  });

  it('maps a server error path to its step', () => {
    expect(stepOfPath('defendant', 'defendant_opinion')).toBe(1);
    expect(stepOfPath('defendant', 'defendant_witnesses.0.email')).toBe(2);
    expect(stepOfPath('defendant', 'reporter_name')).toBe(0);
    expect(stepOfPath('reference', 'evidences')).toBeNull();
  });
});
