import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { TextInput } from '../text-input';
import { PlainTextField } from './plain-text-field';

beforeAll(() => initI18n());
afterEach(cleanup);

function LoginLikeForm({ onValid }: { onValid: (values: { email: string }) => void }) {
  const { control, handleSubmit, setError } = useForm<{ email: string }>({ defaultValues: { email: '' } });
  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => {
        if (!values.email.includes('@')) setError('email', { message: FIELD_MESSAGES_KO.email });
        else onValid(values);
      })}
    >
      <PlainTextField
        control={control}
        name="email"
        label="이메일"
        type="email"
        autoComplete="email"
        required
      />
      <button type="submit">보내기</button>
    </form>
  );
}

describe('PlainTextField, the outlined field without MUI', () => {
  it('is wired as TextInput is: name, required mark, notch text, autocomplete', () => {
    render(<LoginLikeForm onValid={() => {}} />);
    const input = screen.getByRole('textbox', { name: /이메일/ });
    expect(input.hasAttribute('required')).toBe(true);
    expect(input.getAttribute('autocomplete')).toBe('email');
    // The label floats on `:placeholder-shown`, which needs a placeholder: one space, never read as text.
    expect(input.getAttribute('placeholder')).toBe(' ');
    expect(document.querySelector('legend')?.textContent).toBe('이메일\u2009*');
    expect(input.getAttribute('aria-invalid')).toBe('false');

    cleanup();
    render(<TextInput label="이메일" required defaultValue="" />);
    // The MUI field it stands in for cuts the same notch.
    expect(document.querySelector('legend')?.textContent).toBe('이메일\u2009*');
  });

  it('shows the schema message under the field and describes the input by it', async () => {
    render(<LoginLikeForm onValid={() => {}} />);
    const input = screen.getByRole('textbox', { name: /이메일/ });
    fireEvent.change(input, { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: '보내기' }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    const helper = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(helper?.textContent).toBe(FIELD_MESSAGES_KO.email);
    expect(input.closest('.plain-field')?.classList.contains('plain-field--error')).toBe(true);
  });

  it('hands the typed value to the form', async () => {
    const values: string[] = [];
    render(<LoginLikeForm onValid={(v) => values.push(v.email)} />);
    fireEvent.change(screen.getByRole('textbox', { name: /이메일/ }), { target: { value: 'a@b.example' } });
    fireEvent.click(screen.getByRole('button', { name: '보내기' }));
    await waitFor(() => expect(values).toEqual(['a@b.example']));
  });
});
