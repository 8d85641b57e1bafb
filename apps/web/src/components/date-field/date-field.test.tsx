import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../../lib/i18n';
import { DateField } from './date-field';

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);
afterAll(() => changeLanguage('ko'));

function Filter({ initial, seen }: { initial: string; seen: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <DateField
      id="from"
      label="접수일 시작"
      value={value}
      onChange={(next) => {
        seen.push(next);
        setValue(next);
      }}
    />
  );
}

describe('DateField', () => {
  it('shows the day in the page language and takes a typed day on blur', () => {
    const seen: string[] = [];
    render(<Filter initial="2026-03-10" seen={seen} />);
    const input = screen.getByRole('textbox', { name: '접수일 시작' });
    expect((input as HTMLInputElement).value).toBe('2026. 03. 10.');
    fireEvent.change(input, { target: { value: '2026.4.1' } });
    fireEvent.blur(input);
    expect(seen).toEqual(['2026-04-01']);
    expect((input as HTMLInputElement).value).toBe('2026. 04. 01.');
  });

  it('says how to write a day it cannot read, and changes nothing', () => {
    const seen: string[] = [];
    render(<Filter initial="" seen={seen} />);
    const input = screen.getByRole('textbox', { name: '접수일 시작' });
    fireEvent.change(input, { target: { value: '04/01/2026' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(seen).toEqual([]);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('날짜를 2026. 03. 10. 형식으로 입력해주세요.')).toBeTruthy();
  });

  it('follows a switch to English', async () => {
    await changeLanguage('en');
    render(<Filter initial="2026-03-10" seen={[]} />);
    expect((screen.getByRole('textbox', { name: '접수일 시작' }) as HTMLInputElement).value).toBe(
      '2026-03-10',
    );
  });
});
