import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { maskPhone, phoneDigits } from '../../../components/form/phone-mask';
import { collectToasts, fakeServer, renderApp } from '../../../test/render';

const PLANS = [
  { id: 1, name: 'Basic', users: 2, connections: 1, queues: 3, value: 49.9 },
  { id: 2, name: 'Pro', users: 10, connections: 5, queues: 10, value: 199 },
];

const signupServer = (reply: () => { status?: number; data?: unknown } = () => ({ status: 201, data: { id: 9 } })) =>
  fakeServer((call) => {
    if (call.url === '/plans/list') return { data: PLANS };
    if (call.url === '/companies/cadastro') return reply();
    return undefined;
  });

const openSignup = async (path = '/signup') => {
  renderApp(path);
  await screen.findByRole('button', { name: 'Sign up' });
  await screen.findByRole('option', { name: /Pro/ });
  return userEvent.setup();
};

/**
 * Puts `text` into a field as one paste. Typed a key at a time, a form's worth of text took over 30 s on a
 * busy runner (a render per key), and a timed-out test's typing went on into the next test's fields.
 * Typing key by key is the phone mask's own test.
 */
const enter = async (user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) => {
  await user.click(field);
  await user.paste(text);
};

const fill = async (user: ReturnType<typeof userEvent.setup>, values: Partial<Record<'name' | 'email' | 'phone' | 'password', string>>) => {
  if (values.name !== undefined) await enter(user, screen.getByLabelText(/^Name/), values.name);
  if (values.email !== undefined) await enter(user, screen.getByLabelText(/^Email/), values.email);
  if (values.phone !== undefined) await enter(user, screen.getByLabelText(/^Phone/), values.phone);
  if (values.password !== undefined) await enter(user, screen.getByLabelText(/^Password/), values.password);
};

describe('signup page', () => {
  it('lists the public plans', async () => {
    signupServer();
    await openSignup();
    expect(screen.getByRole('option', { name: /Basic – Users: 2 – WhatsApp: 1 – Queues: 3 – R\$\s?49,90/ })).toBeTruthy();
  });

  it('requires name, email, password and plan', async () => {
    const calls = signupServer();
    const user = await openSignup();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findAllByText('Required')).toHaveLength(4);
    expect(calls.some((c) => c.url === '/companies/cadastro')).toBe(false);
  });

  it('applies the bounds: name 2-50, the one password rule (8-50, a digit, a lower- and an upper-case letter), a valid email', async () => {
    const calls = signupServer();
    const user = await openSignup();
    await fill(user, { name: 'A', email: 'nope@', password: '1234' });
    await user.selectOptions(screen.getByRole('combobox'), '2');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Too short (at least 2 characters)')).toBeTruthy();
    expect(screen.getAllByText('At least 8 characters, with a digit, a lowercase and an uppercase letter.').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText('Invalid email')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Name/));
    await enter(user, screen.getByLabelText(/^Name/), 'x'.repeat(51));
    await user.clear(screen.getByLabelText(/^Password/));
    await enter(user, screen.getByLabelText(/^Password/), 'y'.repeat(51));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findAllByText('Too long (at most 50 characters)')).toHaveLength(2);
    expect(calls.some((c) => c.url === '/companies/cadastro')).toBe(false);
  });

  it('masks the phone as (99) 99999-9999, at most 11 digits', async () => {
    signupServer();
    const user = await openSignup();
    await user.type(screen.getByLabelText(/^Phone/), '1198765432199');
    expect((screen.getByLabelText(/^Phone/) as HTMLInputElement).value).toBe('(11) 98765-4321');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1')).toBe('(1');
    expect(phoneDigits('(11) 98765-4321')).toBe('11987654321');
  });

  it('signs up with the family’s payload, then says so and goes to /login', async () => {
    const toasts = collectToasts();
    const calls = signupServer();
    const user = await openSignup('/signup?companyId=42');
    await fill(user, { name: 'Acme Ltda', email: 'Owner@Acme.com', phone: '11987654321', password: 'Segredo-55x' });
    await user.selectOptions(screen.getByRole('combobox'), '2');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(calls.find((c) => c.url === '/companies/cadastro')?.data).toEqual({
      name: 'Acme Ltda',
      email: 'owner@acme.com',
      phone: '11987654321',
      password: 'Segredo-55x',
      planId: 2,
      recurrence: 'MENSAL',
      status: 't',
      campaignsEnabled: true,
      dueDate: format(addDays(new Date(), 3), 'yyyy-MM-dd'),
      companyId: '42',
    });
    expect(toasts.find((t) => t.intent === 'success')?.message).toBe('Your account has been created. Log in to continue.');
  });

  it('shows a refused signup as a toast and stays', async () => {
    signupServer(() => ({ status: 409, data: { error: 'ERR_EMAIL_ALREADY_EXISTS' } }));
    const user = await openSignup();
    await fill(user, { name: 'Acme', email: 'owner@acme.com', password: 'Segredo-55x' });
    await user.selectOptions(screen.getByRole('combobox'), '1');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('This email is already in use.')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/signup');
  });
});
