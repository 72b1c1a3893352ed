import type { ReactNode } from 'react';
import { Button } from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { PageHeader } from '../page-header';
import { SearchBox } from './search-box';

export interface ListHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** The search box; absent: none. */
  search?: { value: string; onChange: (value: string) => void; label: string; testId?: string };
  /** The add button; absent: none. */
  add?: { label: string; onClick: () => void; testId?: string; disabled?: boolean };
  /** More buttons, before the add button. */
  extra?: ReactNode;
}

/** A list page's title row: title, search box, other buttons and the add button. */
export function ListHeader({ title, subtitle, search, add, extra }: ListHeaderProps) {
  return (
    <PageHeader
      title={title}
      subtitle={subtitle}
      actions={
        search || add || extra ? (
          <>
            {search ? <SearchBox {...search} /> : null}
            {extra}
            {add ? (
              <Button appearance="primary" icon={<Add20Regular />} data-testid={add.testId} disabled={add.disabled} onClick={add.onClick}>
                {add.label}
              </Button>
            ) : null}
          </>
        ) : undefined
      }
    />
  );
}
