import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { useReportForm } from '../../../stores/report-form-store';
import { HarmsStep } from './harms-step';

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  useReportForm.getState().clear();
  useReportForm.getState().setReportType('formal');
  useReportForm.getState().setField('harms', [{ type: 'mental', description: '', evidences: null }]);
});
afterEach(() => {
  cleanup();
  useReportForm.getState().clear();
  localStorage.clear();
});

// The first render loads MUI cold, which takes seconds on a loaded machine.
describe('HarmsStep', { timeout: 30_000 }, () => {
  it('gives the harm description a box of several lines, not a one-line input', () => {
    const router = createMemoryRouter([{ path: '/', element: <HarmsStep /> }]);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const description = screen.getByRole('textbox', { name: /harms\.description/ });
    expect(description.tagName).toBe('TEXTAREA');
  });
});
