/**
 * Form fields: label/hint/error wiring (aria-invalid, aria-describedby), controlled use,
 * the password visibility toggle, and use inside a real @modular-forms/react form (spread
 * field props, value/error as signals), validating on blur. In React, modular-forms reports
 * typing as 'change' (its onChange), so forms revalidate on 'change', not 'input'.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { email, required, useForm } from '@modular-forms/react';
import { useSignals } from '@preact/signals-react/runtime';
import { TextField } from '../../src/components/TextField';
import { PasswordField } from '../../src/components/PasswordField';
import { SelectField } from '../../src/components/SelectField';
import { CheckboxField } from '../../src/components/CheckboxField';

const describedText = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' | ');

describe('TextField', () => {
  it('wires label, hint and error for assistive tech', () => {
    render(<TextField label="Amount" hint="Between 10 and 1000" error="Amount too low" value="5" onChange={() => undefined} required />);
    const input = screen.getByRole('textbox', { name: /Amount/ }) as HTMLInputElement;
    expect(input.value).toBe('5');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.required).toBe(true);
    expect(describedText(input)).toBe('Between 10 and 1000 | Amount too low');
  });

  it('has no invalid state without an error', () => {
    render(<TextField label="Name" defaultValue="Ann" />);
    const input = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
    expect(input.value).toBe('Ann');
  });

  it('works controlled', async () => {
    const user = userEvent.setup();
    function Controlled() {
      const [v, setV] = useState('');
      return (
        <>
          <TextField label="Search" value={v} onChange={(e) => setV(e.currentTarget.value.toUpperCase())} />
          <output>{v}</output>
        </>
      );
    }
    render(<Controlled />);
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'eur');
    expect((screen.getByRole('textbox', { name: 'Search' }) as HTMLInputElement).value).toBe('EUR');
    expect(screen.getByRole('status').textContent).toBe('EUR');
  });
});

describe('PasswordField', () => {
  it('toggles visibility with a named, pressed-state button', async () => {
    const user = userEvent.setup();
    render(<PasswordField label="Password" defaultValue="s3cret!A" />);
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(input.type).toBe('password');
    const show = screen.getByRole('button', { name: 'Show password' });
    expect(show.getAttribute('aria-pressed')).toBe('false');
    await user.click(show);
    expect(input.type).toBe('text');
    const hide = screen.getByRole('button', { name: 'Hide password' });
    expect(hide.getAttribute('aria-pressed')).toBe('true');
    await user.click(hide);
    expect(input.type).toBe('password');
  });
});

describe('SelectField and CheckboxField', () => {
  it('select: options, placeholder and change', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <SelectField
        label="Currency"
        placeholder="Select…"
        options={[
          { value: 'USD', label: 'US Dollar' },
          { value: 'EUR', label: 'Euro' },
        ]}
        value=""
        onChange={(e) => onChange(e.currentTarget.value)}
        error="Pick one of the listed currencies"
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Currency' });
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(select)).toBe('Pick one of the listed currencies');
    await user.selectOptions(select, 'EUR');
    expect(onChange).toHaveBeenCalledWith('EUR');
  });

  it('checkbox: label may hold a link, error is described', async () => {
    const user = userEvent.setup();
    function Terms() {
      const [checked, setChecked] = useState(false);
      return (
        <CheckboxField
          label={
            <>
              I accept the <a href="/rules">terms</a>
            </>
          }
          checked={checked}
          onChange={(e) => setChecked(e.currentTarget.checked)}
          error={checked ? '' : 'Please accept terms and privacy policy'}
        />
      );
    }
    render(<Terms />);
    const box = screen.getByRole('checkbox', { name: 'I accept the terms' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(describedText(box)).toBe('Please accept terms and privacy policy');
    await user.click(box);
    expect(box.checked).toBe(true);
    expect(box.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('with @modular-forms/react', () => {
  type LoginForm = { email: string; password: string; terms: boolean };

  function Login({ onSubmit }: { onSubmit: (values: LoginForm) => void }) {
    useSignals();
    const [, { Form, Field }] = useForm<LoginForm>({ validateOn: 'blur', revalidateOn: 'change' });
    return (
      <Form onSubmit={(values) => onSubmit(values as LoginForm)}>
        <Field name="email" validate={[required('Email is required'), email('Enter a valid email')]}>
          {(field, props) => <TextField {...props} type="email" label="Email" value={field.value} error={field.error} />}
        </Field>
        <Field name="password" validate={[required('Password is required')]}>
          {(field, props) => <PasswordField {...props} label="Password" value={field.value} error={field.error} />}
        </Field>
        <Field name="terms" type="boolean" validate={[required('Please accept terms and privacy policy')]}>
          {(field, props) => <CheckboxField {...props} label="I accept" checked={field.value} error={field.error} />}
        </Field>
        <button type="submit">Log in</button>
      </Form>
    );
  }

  it('validates on blur, shows errors wired to the inputs, and submits typed values', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Login onSubmit={onSubmit} />);
    const emailInput = screen.getByRole('textbox', { name: 'Email' });

    await user.type(emailInput, 'not-an-email');
    await user.tab();
    await waitFor(() => expect(emailInput.getAttribute('aria-invalid')).toBe('true'));
    expect(describedText(emailInput)).toBe('Enter a valid email');

    await user.clear(emailInput);
    await user.type(emailInput, 'ann@example.com');
    await waitFor(() => expect(emailInput.getAttribute('aria-invalid')).toBeNull());

    await user.type(screen.getByLabelText('Password'), 'Passw0rd!');
    await user.click(screen.getByRole('checkbox', { name: 'I accept' }));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toEqual({ email: 'ann@example.com', password: 'Passw0rd!', terms: true });
  });

  it('blocks submit and reports every missing field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Login onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Please accept terms and privacy policy')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
