import { useState } from 'react';
import { Button, Input, type InputProps } from '@fluentui/react-components';
import { Eye20Regular, EyeOff20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';

/** A masked secret (an API key, a credential) with a show/hide toggle. */
export function SecretInput(props: InputProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Input
      {...props}
      type={shown ? 'text' : 'password'}
      contentAfter={
        <Button
          appearance="transparent"
          size="small"
          aria-label={shown ? t('actions.hideSecret') : t('actions.showSecret')}
          icon={shown ? <EyeOff20Regular /> : <Eye20Regular />}
          onClick={() => setShown((s) => !s)}
        />
      }
    />
  );
}
