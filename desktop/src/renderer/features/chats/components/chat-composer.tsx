import { useRef, useState } from 'react';
import { Button, makeStyles, Spinner, Textarea, tokens, Tooltip } from '@fluentui/react-components';
import { Attach20Regular, Dismiss12Regular, Send20Regular } from '@fluentui/react-icons';
import { CHAT_MESSAGE_MAX_LENGTH } from '@atrium/shared';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  row: { display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalXS },
  input: { flex: 1, minWidth: 0 },
  hidden: { display: 'none' },
});

export interface ChatComposerProps {
  /** Sends; resolves when the server took it (the text is cleared then), rejects to keep it. */
  onSend: (message: string, file?: File) => Promise<void>;
}

/** The message box: Enter sends, Shift+Enter breaks the line; one file may go with the text. Blank text alone is not sent. */
export function ChatComposer({ onSend }: ChatComposerProps) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const canSend = !sending && (text.trim().length > 0 || !!file);

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    try {
      await onSend(text.trim(), file);
      setText('');
      setFile(undefined);
    } catch {
      // The error was shown; what was typed stays.
    } finally {
      setSending(false);
    }
  };

  return (
    <div className={styles.root}>
      {file ? (
        <div>
          <Button
            size="small"
            shape="circular"
            icon={<Dismiss12Regular />}
            iconPosition="after"
            aria-label={t('composer.removeFile', { name: file.name })}
            data-testid="chat-file-chip"
            disabled={sending}
            onClick={() => setFile(undefined)}
          >
            {file.name}
          </Button>
        </div>
      ) : null}
      <div className={styles.row}>
        <input
          ref={fileInput}
          type="file"
          className={styles.hidden}
          data-testid="chat-file-input"
          onChange={(e) => {
            setFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Tooltip content={t('composer.attach')} relationship="label">
          <Button appearance="subtle" icon={<Attach20Regular />} disabled={sending} data-testid="chat-attach" onClick={() => fileInput.current?.click()} />
        </Tooltip>
        <Textarea
          className={styles.input}
          resize="vertical"
          value={text}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          placeholder={t('composer.placeholder')}
          aria-label={t('composer.placeholder')}
          data-testid="chat-input"
          onChange={(_, d) => setText(d.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <Tooltip content={t('composer.send')} relationship="label">
          <Button
            appearance="primary"
            icon={sending ? <Spinner size="tiny" /> : <Send20Regular />}
            disabled={!canSend}
            data-testid="chat-send"
            onClick={() => void send()}
          />
        </Tooltip>
      </div>
    </div>
  );
}
