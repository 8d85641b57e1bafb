import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextInput } from './text-input';

afterEach(cleanup);

describe('TextInput, the light TextField', () => {
  it('names the input by its label, marks it required and describes it by its helper text', () => {
    render(<TextInput label="이메일" required helperText="회사 메일 주소" defaultValue="" />);
    const input = screen.getByRole('textbox', { name: /이메일/ });
    expect(input.hasAttribute('required')).toBe(true);
    const helper = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(helper?.textContent).toBe('회사 메일 주소');
    // The outline's notch is cut to the label with one required mark, as TextField cuts it.
    expect(document.querySelector('legend')?.textContent).toBe('이메일\u2009*');
  });

  it('says an error to assistive technology', () => {
    render(<TextInput label="접수번호" error helperText="16자리를 입력해 주세요." defaultValue="" />);
    expect(screen.getByRole('textbox', { name: '접수번호' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('is a native select of its options when asked, and reports the choice', () => {
    const onChange = vi.fn();
    render(
      <TextInput
        select
        label="관계"
        value=""
        onChange={onChange}
        slotProps={{ htmlInput: { 'data-testid': 'rel' } }}
      >
        <option value="">선택</option>
        <option value="상급자">상급자</option>
      </TextInput>,
    );
    const select = screen.getByRole('combobox', { name: '관계' });
    expect(select.tagName).toBe('SELECT');
    expect(screen.getByTestId('rel')).toBe(select);
    fireEvent.change(select, { target: { value: '상급자' } });
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('takes an aria-label instead of a visible label', () => {
    render(<TextInput slotProps={{ htmlInput: { 'aria-label': '김안심의 역할' } }} defaultValue="" />);
    expect(screen.getByRole('textbox', { name: '김안심의 역할' })).toBeTruthy();
  });
});
