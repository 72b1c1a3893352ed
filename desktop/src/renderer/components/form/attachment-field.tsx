import { useRef } from 'react';
import { Button, Field, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Attach20Regular, Dismiss16Regular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  file: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', minWidth: 0 },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '260px' },
});

export interface AttachmentFieldProps {
  label: string;
  /** The attach button's label. */
  attachLabel: string;
  /** The remove button's accessible name. */
  removeLabel: string;
  /** The file types offered by the file chooser (its `accept`). */
  accept: string;
  /** The name of what is attached (a chosen file's, or the stored one's); null: nothing. */
  fileName: string | null;
  /** A chosen file; checking it (type, size) is the caller's. */
  onPick: (file: File) => void;
  onRemove: () => void;
  /** Test ids: `{testIdPrefix}-file` (the file input), `-media-name` and `-media-remove`. */
  testIdPrefix: string;
}

/** A form's one attachment: an attach button, the attached file's name and a button to remove it. */
export function AttachmentField({ label, attachLabel, removeLabel, accept, fileName, onPick, onRemove, testIdPrefix }: AttachmentFieldProps) {
  const styles = useStyles();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Field label={label}>
      <div className={styles.file}>
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          data-testid={`${testIdPrefix}-file`}
          onChange={(e) => {
            const picked = e.target.files?.[0];
            // The same file may be chosen again after a refusal.
            e.target.value = '';
            if (picked) onPick(picked);
          }}
        />
        <Button icon={<Attach20Regular />} onClick={() => input.current?.click()}>
          {attachLabel}
        </Button>
        {fileName ? (
          <>
            <Text className={styles.fileName} data-testid={`${testIdPrefix}-media-name`}>
              {fileName}
            </Text>
            <Button
              size="small"
              appearance="subtle"
              icon={<Dismiss16Regular />}
              aria-label={removeLabel}
              data-testid={`${testIdPrefix}-media-remove`}
              onClick={onRemove}
            />
          </>
        ) : null}
      </div>
    </Field>
  );
}
