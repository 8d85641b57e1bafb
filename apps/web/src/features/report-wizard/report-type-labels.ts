import type { ReportType, StepKey } from '@ansim/shared/constants';
import type { TFunction } from 'i18next';

export const reportTypeLabel = (t: TFunction, type: ReportType) => t(`reportTypes.${type}`);
export const stepLabel = (t: TFunction, step: StepKey) => t(`steps.${step}`);
export const stepDescription = (t: TFunction, step: StepKey) => t(`stepDescriptions.${step}`);
