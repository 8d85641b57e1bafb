import type { CompanySettings } from '@ansim/shared/contract/company';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import '../settings-copy';
import { JoinCodeTab } from './join-code-tab';

const range = { min: 1, max: 30 };
const settings = {
  name: '데모 주식회사',
  join_code: 'ABCD-1234',
  intake_code: 'intake-1',
  intake_url: 'https://ansim.example/c/intake-1',
  notice_contact: '',
  intake_help_text: '',
  limits: {
    ackDays: range,
    feedbackDays: range,
    retentionDays: range,
    noticeContact: 200,
    intakeHelpText: 500,
  },
} as unknown as CompanySettings;

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

describe('the printed intake notice', () => {
  it('points at the address where it is printed: above the text that names it', () => {
    const { container } = render(
      <QueryClientProvider client={createQueryClient()}>
        <JoinCodeTab settings={settings} />
      </QueryClientProvider>,
    );
    const lines = [...container.querySelectorAll('.print-notice p')].map((p) => p.textContent ?? '');
    const address = lines.indexOf(settings.intake_url);
    const body = lines.findIndex((line) => line.includes('주소로 접속하면'));
    expect(address).toBeGreaterThanOrEqual(0);
    expect(body).toBeGreaterThan(address);
    expect(lines[body]).toContain('위 주소');
    expect(lines[body]).not.toContain('아래 주소');
  });
});
