import { useState, type ReactNode } from 'react';
import { Dialog, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { SaveActions } from '../form/save-actions';
import { validate, type FieldErrors, type FieldMessages, type Schema } from '../form/validation';
import { useSaving } from '../../hooks/use-saving';

const useStyles = makeStyles({
  surface: { width: '100%', boxSizing: 'border-box' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** What a form dialog's fields get: the values, their errors, and bindings for Fluent's inputs. */
export interface FormState<V extends Record<string, unknown>> {
  values: V;
  errors: FieldErrors;
  saving: boolean;
  /** Sets one value and clears that field's error. */
  set: <K extends keyof V>(name: K, value: V[K]) => void;
  /** Props for a `<Field>`: its error message. */
  field: (name: keyof V & string) => { validationMessage: string | undefined };
  /** Props for an `<Input>` / `<Textarea>` bound to a text value. */
  text: (name: keyof V & string) => { value: string; onChange: (_: unknown, data: { value: string }) => void };
  /** Props for a `<Switch>` / `<Checkbox>` bound to a boolean value. */
  check: (name: keyof V & string) => { checked: boolean; onChange: (_: unknown, data: { checked: boolean | 'mixed' }) => void };
}

export interface FormDialogProps<V extends Record<string, unknown>, P> {
  title: ReactNode;
  /** The shared zod schema the server validates with (from @atrium/shared). */
  schema: Schema<P>;
  initialValues: V;
  /** What is validated and sent (default: the values as they are), e.g. to add or drop fields. */
  toPayload?: (values: V) => Record<string, unknown>;
  /** The spec's own messages for some fields and kinds of error, instead of the common ones. */
  messages?: FieldMessages;
  /**
   * Rules the schema cannot hold because they need more than the form's values (e.g. the company's other
   * queues): the message of each field they refuse, shown with the schema's; nothing is sent while any.
   */
  check?: (values: V) => Partial<FieldErrors>;
  /** Told the errors of a refused save, e.g. to show the tab holding the first wrong field. */
  onInvalid?: (errors: FieldErrors) => void;
  /** Saves the parsed values; resolve to close. A failure is toasted and the dialog stays open. */
  onSubmit: (data: P, values: V) => Promise<unknown>;
  onClose: () => void;
  /** `data-testid` of the dialog; its save and cancel buttons get `{testId}-save` / `{testId}-cancel` unless named. */
  testId?: string;
  saveTestId?: string;
  cancelTestId?: string;
  /** Max width of the dialog (px). */
  width?: number;
  /** The cancel button's label (default "Cancel"), e.g. "Close" where parts of the dialog save by themselves. */
  cancelLabel?: string;
  /** A class for the dialog's content (its fields' column), e.g. a minimum height across tabs. */
  contentClassName?: string;
  /** Shows what cannot be changed: no save button, and the form sends nothing (the fields disable themselves). */
  readOnly?: boolean;
  children: (form: FormState<V>) => ReactNode;
}

/**
 * An add/edit dialog: the fields `children` renders, validated on save with the shared schema (one
 * translated message under each wrong field, nothing sent), then `onSubmit` with the parsed data while the
 * buttons wait; a failure becomes the error toast.
 */
export function FormDialog<V extends Record<string, unknown>, P>({
  title,
  schema,
  initialValues,
  toPayload,
  messages,
  check,
  onInvalid,
  onSubmit,
  onClose,
  testId,
  saveTestId,
  cancelTestId,
  width = 480,
  cancelLabel,
  contentClassName,
  readOnly = false,
  children,
}: FormDialogProps<V, P>) {
  const styles = useStyles();
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  const set = <K extends keyof V>(name: K, value: V[K]) => {
    setValues((old) => ({ ...old, [name]: value }));
    setErrors((old) => {
      if (!(name in old)) return old;
      const { [name as string]: _dropped, ...rest } = old;
      return rest;
    });
  };
  const form: FormState<V> = {
    values,
    errors,
    saving,
    set,
    field: (name) => ({ validationMessage: errors[name] }),
    text: (name) => ({ value: String(values[name] ?? ''), onChange: (_, d) => set(name, d.value as V[typeof name]) }),
    check: (name) => ({ checked: !!values[name], onChange: (_, d) => set(name, (d.checked === true) as V[typeof name]) }),
  };

  const submit = async () => {
    if (readOnly) return;
    const result = validate(schema, toPayload ? toPayload(values) : values, t, messages);
    const refused: FieldErrors = { ...result.errors };
    for (const [name, message] of Object.entries(check?.(values) ?? {})) if (message) refused[name] = message;
    if (!result.ok || Object.keys(refused).length > 0) {
      setErrors(refused);
      onInvalid?.(refused);
      return;
    }
    setErrors({});
    await run(async () => {
      await onSubmit(result.data, values);
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} style={{ maxWidth: width }} data-testid={testId}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={mergeClasses(styles.content, contentClassName)}>{children(form)}</DialogContent>
            <SaveActions
              saving={saving}
              onCancel={onClose}
              cancelLabel={cancelLabel}
              readOnly={readOnly}
              cancelTestId={cancelTestId ?? (testId ? `${testId}-cancel` : undefined)}
              saveTestId={saveTestId ?? (testId ? `${testId}-save` : undefined)}
            />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
