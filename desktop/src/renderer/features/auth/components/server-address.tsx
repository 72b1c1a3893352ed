import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Tooltip,
} from '@fluentui/react-components';
import { Server20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { setServerUrl } from '../../../api/client';
import { chooseServer, hasChosenServer, isDesktop } from '../../../platform';
import { usePreferences } from '../../../stores/preferences-store';

/**
 * Desktop only: the server the app talks to. Opens by itself on first run (no server chosen yet); the
 * desktop store checks and normalises the address.
 */
export function ServerAddress() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const current = usePreferences((s) => s.serverUrl);
  const setPreference = usePreferences((s) => s.set);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!isDesktop()) return;
    let cancelled = false;
    void hasChosenServer().then((chosen) => {
      if (!cancelled && !chosen) setOpen(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  if (!isDesktop()) return null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const origin = await chooseServer(value.trim());
    if (!origin) {
      setError(t('server.invalid'));
      return;
    }
    setServerUrl(origin);
    usePreferences.setState({ serverUrl: origin });
    setPreference('serverUrl', origin);
    setOpen(false);
  };

  return (
    <>
      <Tooltip content={current || t('server.title')} relationship="description">
        <Button
          appearance="subtle"
          icon={<Server20Regular />}
          onClick={() => {
            setValue(current);
            setError(undefined);
            setOpen(true);
          }}
        >
          {t('server.button')}
        </Button>
      </Tooltip>
      <Dialog open={open} onOpenChange={(_, data) => setOpen(data.open)}>
        <DialogSurface>
          <form noValidate onSubmit={(e) => void save(e)}>
            <DialogBody>
              <DialogTitle>{t('server.title')}</DialogTitle>
              <DialogContent>
                <Field label={t('server.label')} hint={t('server.hint')} validationMessage={error} validationState={error ? 'error' : 'none'}>
                  <Input type="url" value={value} onChange={(_, d) => setValue(d.value)} placeholder="https://desk.example.com" />
                </Field>
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" onClick={() => setOpen(false)}>
                  {tc('actions.cancel')}
                </Button>
                <Button appearance="primary" type="submit">
                  {tc('actions.save')}
                </Button>
              </DialogActions>
            </DialogBody>
          </form>
        </DialogSurface>
      </Dialog>
    </>
  );
}
