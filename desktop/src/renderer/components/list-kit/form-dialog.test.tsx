import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Field, Input } from '@fluentui/react-components';
import { describe, expect, it } from 'vitest';
import { createTagSchema } from '@atrium/shared';
import { renderWithProviders, signIn } from '../../test/render';
import { FormDialog, type FormDialogProps } from '.';

type Values = { name: string; color: string; kanban: boolean };

const renderDialog = (props: Partial<FormDialogProps<Values, unknown>> = {}) => {
  const saved: unknown[] = [];
  const refusals: string[][] = [];
  signIn();
  renderWithProviders(
    <FormDialog<Values, unknown>
      title="Add"
      schema={createTagSchema}
      initialValues={{ name: '', color: '#fff', kanban: false }}
      testId="f"
      onClose={() => undefined}
      onSubmit={async (data) => {
        saved.push(data);
      }}
      onInvalid={(errors) => refusals.push(Object.keys(errors))}
      {...props}
    >
      {(form) => (
        <>
          <Field label="Name" {...form.field('name')}>
            <Input data-testid="f-name" {...form.text('name')} />
          </Field>
          <Field label="Colour" {...form.field('color')}>
            <Input data-testid="f-color" {...form.text('color')} />
          </Field>
        </>
      )}
    </FormDialog>,
  );
  return { saved, refusals };
};

const messageOf = (testId: string) =>
  screen.getByTestId(testId).closest('.fui-Field')?.querySelector('.fui-Field__validationMessage')?.textContent ?? '';

describe('FormDialog', () => {
  it('shows the messages of `check` with the schema’s, sends nothing, and tells `onInvalid`', async () => {
    const { saved, refusals } = renderDialog({ check: (v) => (v.color === '#000' ? { color: 'Not black' } : {}) });
    fireEvent.change(screen.getByTestId('f-color'), { target: { value: '#000' } });
    fireEvent.click(screen.getByTestId('f-save'));
    await waitFor(() => expect(messageOf('f-color')).toBe('Not black'));
    expect(messageOf('f-name')).toBe('Required');
    expect(refusals).toEqual([['name', 'color']]);

    // Only `check` refuses: still nothing is sent.
    fireEvent.change(screen.getByTestId('f-name'), { target: { value: 'Gamma' } });
    fireEvent.click(screen.getByTestId('f-save'));
    await waitFor(() => expect(refusals).toHaveLength(2));
    expect(refusals[1]).toEqual(['color']);
    expect(saved).toEqual([]);

    fireEvent.change(screen.getByTestId('f-color'), { target: { value: '#123' } });
    fireEvent.click(screen.getByTestId('f-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
  });

  it('a field’s message given as one string stands for any issue of that field', async () => {
    renderDialog({ messages: { color: 'Pick a colour from the list' } });
    fireEvent.change(screen.getByTestId('f-color'), { target: { value: 'red' } });
    fireEvent.click(screen.getByTestId('f-save'));
    await waitFor(() => expect(messageOf('f-color')).toBe('Pick a colour from the list'));
    fireEvent.change(screen.getByTestId('f-color'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('f-save'));
    await waitFor(() => expect(messageOf('f-color')).toBe('Pick a colour from the list'));
  });

  it('names its cancel button as told', async () => {
    renderDialog({ cancelLabel: 'Close' });
    expect(within(await screen.findByTestId('f')).getByTestId('f-cancel').textContent).toBe('Close');
  });
});
