import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errors';
import type { ImportResult } from '../api/contacts';

const IMPORT_FIELDS = ['name', 'number', 'email'] as const;

/** Which columns of a refused row were wrong, each with what a valid value looks like. */
const fieldProblems = (fields: { path: string }[], t: TFunction<'contacts'>) => {
  const refused = IMPORT_FIELDS.filter((f) => fields.some((issue) => issue.path === f));
  if (refused.length === 0) return t('importResult.fields.unknown');
  return refused.map((f) => t(`importResult.fields.${f}`)).join('; ');
};

/** What an import did: the contacts created (id, name) and each refused row (name, error). */
export function ImportResultDialog({ result, onClose }: { result: ImportResult; onClose: () => void }) {
  const { t } = useTranslation('contacts');
  const { t: tc } = useTranslation();
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="import-result">
        <DialogBody>
          <DialogTitle>{t('importResult.title')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 8, maxHeight: '60vh', overflow: 'auto' }}>
            <Text weight="semibold">{t('importResult.created', { count: result.newContacts.length })}</Text>
            <ul style={{ margin: 0 }}>
              {result.newContacts.map((c) => (
                <li key={c.contactId}>
                  #{c.contactId} {c.contactName}
                </li>
              ))}
            </ul>
            {result.errorBag.length > 0 ? (
              <>
                <Text weight="semibold" style={{ color: tokens.colorPaletteRedForeground1 }}>
                  {t('importResult.errors', { count: result.errorBag.length })}
                </Text>
                <ul style={{ margin: 0 }}>
                  {result.errorBag.map((e, i) => (
                    <li key={i} data-testid={`import-error-${i}`}>
                      {e.contactName}: {e.fields?.length ? fieldProblems(e.fields, t) : errorMessage({ error: e.error })}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              {tc('actions.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
