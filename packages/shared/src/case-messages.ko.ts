/**
 * The messages of the case-handling rules in the shared schemas (contract/manager.ts): a handler's change of status
 * and decision on a protective measure. Apart from messages.ko.ts, which every page loads, since only the
 * manager's dialogs show them (the JS budget of R-PERF-2); the web translates them by key like FIELD_MESSAGES_KO.
 */
export const CASE_FIELD_MESSAGES_KO = {
  statusRequired: '변경할 상태를 선택해주세요.',
  findingRequired: '조사 결과를 골라주세요.',
  actionsRequired: '취한 조치를 하나 이상 골라주세요. 조치가 없으면 "조치 없음"을 고릅니다.',
  outcomeRequired: '조사 결과(괴롭힘 인정 여부와 조치)를 기록해야 이 단계로 바꿀 수 있습니다.',
  outcomeNotHere: '조사 결과는 조치 완료 또는 종결로 바꿀 때 기록합니다.',
  reopenReasonRequired: '사건을 다시 여는 사유를 적어주세요.',
  feedbackNeedsNote: '결과 통지로 기록하려면 신고인에게 보낼 안내를 적어주세요.',
  refuseReasonRequired: '보호조치를 하지 않는 사유를 적어주세요.',
  grantReasonRequired: '신고인이 반대한 보호조치를 시행하는 사유를 적어주세요.',
} as const;
