import { useMemo, useState, type FormEvent } from 'react';
import { Button, Field, Input, makeStyles, Select, Spinner, Text, tokens } from '@fluentui/react-components';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { signupSchema } from '@atrium/shared';
import { toastError } from '../../../api/errors';
import { useQuery } from '../../../api/query';
import type { Plan } from '../../../api/types';
import { AppLink } from '../../../components/app-link';
import { maskPhone, phoneDigits } from '../../../components/form/phone-mask';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { listPublicPlans, signup } from '../api/signup';
import { AuthLayout } from './auth-layout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  alt: { textAlign: 'center', color: tokens.colorNeutralForeground2 },
});

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

type Values = { name: string; email: string; phone: string; password: string; planId: string };

/** /signup (spec 01 sections 2 and 5): a company and its first admin, on a plan from GET /plans/list. */
export default function SignupPage() {
  const styles = useStyles();
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const companyId = params.get('companyId') ?? undefined;
  const [values, setValues] = useState<Values>({ name: '', email: '', phone: '', password: '', planId: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const plans = useQuery<Plan[]>(['public-plans'], listPublicPlans);

  const planOptions = useMemo(
    () =>
      (plans.data ?? []).map((plan) => ({
        id: plan.id,
        label: t('signup.planOption', {
          name: plan.name,
          users: plan.users,
          connections: plan.connections,
          queues: plan.queues,
          value: brl.format(plan.value),
        }),
      })),
    [plans.data, t],
  );

  const set = (field: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _drop, ...rest }) => rest);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const digits = phoneDigits(values.phone);
    const result = validate(signupSchema, { ...values, phone: digits || undefined, planId: values.planId || undefined }, t);
    setErrors(result.errors);
    if (!result.ok) return;
    setSubmitting(true);
    try {
      await signup({
        name: result.data.name,
        email: result.data.email,
        password: result.data.password,
        phone: digits,
        planId: result.data.planId,
        companyId,
      });
      toast.success(t('signup.success'));
      navigate('/login');
    } catch (err) {
      toastError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const field = (name: keyof Values) => ({
    validationMessage: errors[name],
    validationState: errors[name] ? ('error' as const) : ('none' as const),
  });

  return (
    <AuthLayout title={t('signup.title')} subtitle={t('signup.subtitle')}>
      <form className={styles.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t('signup.title')}>
        <Field label={t('signup.name')} required {...field('name')}>
          <Input name="name" autoComplete="organization" value={values.name} onChange={(_, d) => set('name', d.value)} />
        </Field>
        <Field label={t('signup.email')} required {...field('email')}>
          <Input type="email" name="email" autoComplete="email" value={values.email} onChange={(_, d) => set('email', d.value)} />
        </Field>
        <Field label={t('signup.phone')} {...field('phone')}>
          <Input
            type="tel"
            name="phone"
            autoComplete="tel"
            placeholder="(99) 99999-9999"
            value={values.phone}
            onChange={(_, d) => set('phone', maskPhone(d.value))}
          />
        </Field>
        <Field label={t('signup.password')} required hint={t('validation.passwordRule', { ns: 'common' })} {...field('password')}>
          <Input
            type="password"
            name="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(_, d) => set('password', d.value)}
          />
        </Field>
        <Field label={t('signup.plan')} required {...field('planId')}>
          <Select
            name="planId"
            value={values.planId}
            onChange={(_, d) => set('planId', d.value)}
            root={{ style: { width: '100%', minWidth: 0 } }}
            select={{ style: { width: '100%', minWidth: 0, textOverflow: 'ellipsis' } }}
          >
            <option value="">{plans.isLoading ? '…' : t('signup.choosePlan')}</option>
            {planOptions.map((plan) => (
              <option key={plan.id} value={String(plan.id)}>
                {plan.label}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          type="submit"
          appearance="primary"
          size="large"
          disabled={submitting}
          icon={submitting ? <Spinner size="tiny" /> : undefined}
        >
          {t('signup.submit')}
        </Button>
        <Text className={styles.alt}>
          {t('signup.haveAccount')} <AppLink to="/login">{t('signup.login')}</AppLink>
        </Text>
      </form>
    </AuthLayout>
  );
}
