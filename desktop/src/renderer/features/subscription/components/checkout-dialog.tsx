import { useState } from 'react';
import {
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Divider,
  Field,
  Input,
  Link,
  Select,
  Spinner,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CHECKOUT_COUNTRIES, checkoutAddressSchema } from '@atrium/shared';
import { useCompanyPlan } from '../../../api/company';
import { toast } from '../../../components/toasts';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { useSaving } from '../../../hooks/use-saving';
import { formatDate } from '../../../i18n/format';
import { subscriptionApi, type Invoice, type PixCharge } from '../api/subscription';
import { PixScreen } from './pix-screen';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  steps: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    listStyle: 'none',
    padding: 0,
    margin: `0 0 ${tokens.spacingVerticalL}`,
  },
  step: {
    flex: 1,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `3px solid ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground3,
  },
  stepDone: { borderBottomColor: tokens.colorBrandStroke2, color: tokens.colorNeutralForeground2 },
  stepActive: { borderBottomColor: tokens.colorBrandStroke1, color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  form: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: tokens.spacingHorizontalM },
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalL },
  price: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold },
  review: { display: 'grid', gridTemplateColumns: 'auto 1fr', gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}` },
  label: { color: tokens.colorNeutralForeground3 },
});

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Steps 0 data, 1 plan, 2 review (spec 01 section 2); the Pix screen comes after them. */
const STEPS = ['data', 'plan', 'review'] as const;
const PIX_STEP = STEPS.length;

const EMPTY_ADDRESS = { firstName: '', lastName: '', address2: '', city: '', state: '', zipcode: '', country: 'BR' };
type Address = typeof EMPTY_ADDRESS;

/**
 * The checkout of one invoice. It opens on the plan step, where Back and Next are hidden: the plan card's
 * own button moves on (as the family's checkout does). Paying creates the Pix charge and shows the Pix
 * screen; the confirmation arrives later as a realtime event, heard by the subscription page.
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('subscription');
  const { t: tc } = useTranslation();
  const [step, setStep] = useState(1);
  const [address, setAddress] = useState<Address>(EMPTY_ADDRESS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [charge, setCharge] = useState<PixCharge | null>(null);
  const { saving, run } = useSaving();
  const plan = useCompanyPlan().data?.plan;

  const change = (field: keyof Address) => (_: unknown, data: { value: string }) => {
    setAddress((a) => ({ ...a, [field]: data.value }));
    if (errors[field]) setErrors(({ [field]: _drop, ...rest }) => rest);
  };

  const next = () => {
    if (step === 0) {
      const result = validate(checkoutAddressSchema, address, tc);
      // "Invalid value" alone does not say what a zip code should look like.
      const shown: FieldErrors = { ...result.errors };
      if (shown.zipcode && address.zipcode.trim()) shown.zipcode = t('checkout.data.zipcodeInvalid');
      setErrors(shown);
      if (result.ok) setStep(1);
    }
  };

  const pay = () =>
    run(async () => {
      const created = await subscriptionApi.checkout({
        ...address,
        useAddressForPaymentDetails: false,
        plan: JSON.stringify({ title: invoice.detail, price: invoice.value, users: plan?.users, connections: plan?.connections }),
        // Informative only: the server charges the invoice's own value.
        price: invoice.value,
        users: plan?.users,
        connections: plan?.connections,
        invoiceId: invoice.id,
      });
      setCharge(created);
      setStep(PIX_STEP);
      toast.success(t('checkout.success'));
    });

  const textField = (field: Exclude<keyof Address, 'country'>, required = false) => (
    <Field
      label={t(`checkout.data.${field}`)}
      required={required}
      validationMessage={errors[field]}
      validationState={errors[field] ? 'error' : 'none'}
    >
      <Input name={field} value={address[field]} onChange={change(field)} data-testid={`checkout-${field}`} />
    </Field>
  );

  const hasAddress = address.firstName.trim() !== '' || address.address2.trim() !== '';

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} data-testid="checkout-dialog">
        <DialogBody>
          <DialogTitle>{t('checkout.title')}</DialogTitle>
          <DialogContent>
            {step < PIX_STEP ? (
              <ol className={styles.steps} aria-label={t('checkout.title')}>
                {STEPS.map((name, index) => (
                  <li
                    key={name}
                    data-testid={`checkout-step-${index}`}
                    aria-current={index === step ? 'step' : undefined}
                    className={mergeClasses(styles.step, index < step && styles.stepDone, index === step && styles.stepActive)}
                  >
                    {index + 1}. {t(`checkout.steps.${name}`)}
                  </li>
                ))}
              </ol>
            ) : null}

            {step === 0 ? (
              <div className={styles.form} data-testid="checkout-data">
                {textField('firstName', true)}
                {textField('lastName')}
                {textField('address2', true)}
                {textField('city', true)}
                {textField('state')}
                {textField('zipcode', true)}
                <Field label={t('checkout.data.country')} required>
                  <Select
                    value={address.country}
                    onChange={(_, d) => setAddress((a) => ({ ...a, country: d.value }))}
                    data-testid="checkout-country"
                  >
                    {CHECKOUT_COUNTRIES.map((c) => (
                      <option key={c} value={c}>
                        {t(`checkout.data.countries.${c}`)}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>
            ) : null}

            {step === 1 ? (
              <Card className={styles.card} data-testid="checkout-plan">
                <Text size={500} weight="semibold">
                  {invoice.detail}
                </Text>
                {plan ? (
                  <Text>
                    {t('checkout.plan.users', { count: plan.users })} · {t('checkout.plan.connections', { count: plan.connections })} ·{' '}
                    {t('checkout.plan.queues', { count: plan.queues })}
                  </Text>
                ) : null}
                <Text className={styles.price}>{brl.format(invoice.value)}</Text>
                <Text className={styles.label}>{t('checkout.plan.invoice', { id: invoice.id, date: formatDate(invoice.dueDate) })}</Text>
                <Button appearance="primary" onClick={() => setStep(2)} data-testid="checkout-choose">
                  {t('checkout.plan.choose')}
                </Button>
              </Card>
            ) : null}

            {step === 2 ? (
              <div data-testid="checkout-review">
                <Text as="h3" weight="semibold" block>
                  {t('checkout.review.title')}
                </Text>
                <div className={styles.review}>
                  <Text className={styles.label}>{t('checkout.review.plan')}</Text>
                  <Text>{invoice.detail}</Text>
                  <Text className={styles.label}>{t('checkout.review.value')}</Text>
                  <Text weight="semibold">{brl.format(invoice.value)}</Text>
                  <Text className={styles.label}>{t('checkout.review.dueDate')}</Text>
                  <Text>{formatDate(invoice.dueDate)}</Text>
                  <Text className={styles.label}>{t('checkout.review.method')}</Text>
                  <Text>{t('checkout.review.pix')}</Text>
                  {hasAddress ? (
                    <>
                      <Text className={styles.label}>{t('checkout.review.payer')}</Text>
                      <Text>
                        {[`${address.firstName} ${address.lastName}`.trim(), address.address2, address.city, address.state, address.zipcode]
                          .filter(Boolean)
                          .join(', ')}
                      </Text>
                    </>
                  ) : null}
                </div>
                <Divider style={{ margin: `${tokens.spacingVerticalM} 0` }} />
                <Link as="button" onClick={() => setStep(0)} data-testid="checkout-edit-data">
                  {t('checkout.review.editData')}
                </Link>
              </div>
            ) : null}

            {step === PIX_STEP && charge ? <PixScreen charge={charge} /> : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={saving} onClick={onClose} data-testid="checkout-close">
              {t('checkout.close')}
            </Button>
            {/* Spec 01 section 2: no Back or Next on the plan step. */}
            {step === 2 ? (
              <Button appearance="secondary" disabled={saving} onClick={() => setStep(1)} data-testid="checkout-back">
                {t('checkout.back')}
              </Button>
            ) : null}
            {step === 0 ? (
              <Button appearance="primary" onClick={next} data-testid="checkout-next">
                {t('checkout.next')}
              </Button>
            ) : null}
            {step === 2 ? (
              <Button
                appearance="primary"
                disabled={saving}
                icon={saving ? <Spinner size="tiny" /> : undefined}
                onClick={() => void pay()}
                data-testid="checkout-pay"
              >
                {t('checkout.pay')}
              </Button>
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
