import type { ReportType, StepKey } from '@ansim/shared/constants';
import type { TFunction } from 'i18next';

export const reportTypeLabel = (t: TFunction, type: ReportType) => t(`reportTypes.${type}`);
export const stepLabel = (t: TFunction, step: StepKey) => t(`steps.${step}`);
/** An anonymous report asks nothing about the reporter's position, so its first step says so. */
export const stepDescription = (t: TFunction, step: StepKey, type?: ReportType | '') =>
  step === 'parties' && type === 'anonym'
    ? t('stepDescriptions.partiesAnonym')
    : t(`stepDescriptions.${step}`);
