import { useState } from 'react';
import { Button, Input, type InputProps } from '@fluentui/react-components';
import { Eye20Regular, EyeOff20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';

/** A masked key with a show/hide toggle (spec 02 section 5: the API key field). */
export function SecretInput(props: InputProps) {
  const { t } = useTranslation('prompts');
  const [shown, setShown] = useState(false);
  return (
    <Input
      {...props}
      type={shown ? 'text' : 'password'}
      contentAfter={
        <Button
          appearance="transparent"
          size="small"
          aria-label={shown ? t('dialog.hideKey') : t('dialog.showKey')}
          icon={shown ? <EyeOff20Regular /> : <Eye20Regular />}
          onClick={() => setShown((s) => !s)}
        />
      }
    />
  );
}
