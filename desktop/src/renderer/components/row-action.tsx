import type { ReactElement } from 'react';
import { Button, Tooltip } from '@fluentui/react-components';

export interface RowActionProps {
  /** The tooltip, which is also the button's accessible name. */
  label: string;
  icon: ReactElement;
  onClick: () => void;
  testId?: string;
  disabled?: boolean;
}

/** One icon button of a table row, named by its tooltip. */
export function RowAction({ label, icon, onClick, testId, disabled }: RowActionProps) {
  return (
    <Tooltip content={label} relationship="label">
      <Button size="small" appearance="subtle" icon={icon} data-testid={testId} disabled={disabled} onClick={onClick} />
    </Tooltip>
  );
}
