import { useState, type Dispatch, type SetStateAction } from 'react';
import { Badge, Button, Field, Input, Spinner, Text, Textarea, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Dismiss20Regular, Edit20Regular, Save20Regular, TextBulletListAdd20Regular } from '@fluentui/react-icons';
import { createQueueOptionSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { queueOptionsApi, queueOptionsKey, queueOptionsPrefix, sortOptions, type QueueOption } from '../api/queue-options';

/** What the option form checks: the shared schema's title (required, up to 200) and message. */
const optionFormSchema = createQueueOptionSchema.pick({ title: true, message: true });

/**
 * Reloads every level of the queue's tree after a change (the server renumbers siblings on delete) and
 * waits for the top level, which carries the whole tree.
 */
const reloadTree = async (queueId: number): Promise<void> => {
  // Resolves when every level on screen has loaded again.
  await queryClient.invalidateQueries({ queryKey: queueOptionsPrefix(queueId) });
};

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  level: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  children: {
    marginLeft: tokens.spacingHorizontalXL,
    paddingLeft: tokens.spacingHorizontalM,
    borderLeft: `2px solid ${tokens.colorNeutralStroke2}`,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  title: { flex: 1, minWidth: 0, overflowWrap: 'anywhere' },
  message: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: tokens.colorNeutralForeground2 },
  muted: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
});

/** An option added on screen and not saved yet. */
interface Draft {
  key: number;
}

let draftSeq = 0;
const newDraft = (): Draft => ({ key: ++draftSeq });

/** The key a new option gets: one after the last of its level (keys run 1..n; the server renumbers on delete). */
export const nextOptionKey = (siblings: readonly QueueOption[]): string =>
  String(siblings.reduce((max, o) => Math.max(max, Number(o.option) || 0), 0) + 1);

/** The queue's chatbot menu as a tree (spec 02 sections 3 and 4): view and edit modes, unsaved drafts. */
export function QueueOptionsEditor({ queueId }: { queueId: number | undefined }) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const [drafts, setDrafts] = useState<Draft[]>([]);

  if (!queueId) {
    return (
      <Text className={styles.muted} data-testid="queue-options-save-first">
        {t('options.saveQueueFirst')}
      </Text>
    );
  }

  return (
    <div className={styles.root} data-testid="queue-options">
      <OptionLevel queueId={queueId} parentId={null} drafts={drafts} setDrafts={setDrafts} />
      <div>
        <Button icon={<Add20Regular />} data-testid="queue-option-add" onClick={() => setDrafts((d) => [...d, newDraft()])}>
          {t('options.add')}
        </Button>
      </div>
    </div>
  );
}

interface OptionLevelProps {
  queueId: number;
  parentId: number | null;
  /** The level as its parent's `children` carried it; without them the level loads itself. */
  options?: QueueOption[];
  drafts: Draft[];
  setDrafts: Dispatch<SetStateAction<Draft[]>>;
}

/** One level of the tree: its saved options in key order, then its drafts. */
function OptionLevel({ queueId, parentId, options, drafts, setDrafts }: OptionLevelProps) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const own = useQuery(queueOptionsKey(queueId, parentId), () => queueOptionsApi.list(queueId, parentId), {
    enabled: options === undefined,
  });
  const saved = sortOptions(options ?? own.data ?? []);
  const drop = (draft: Draft) => setDrafts((d) => d.filter((x) => x.key !== draft.key));

  const create = async (draft: Draft, title: string, message: string) => {
    await queueOptionsApi.create({ queueId, parentId, title, message, option: nextOptionKey(saved) });
    await reloadTree(queueId);
    // The draft goes once the saved option is on screen in its place.
    drop(draft);
    toast.success(t('options.toasts.saved'));
  };

  if (options === undefined && own.isLoading && parentId === null) return <Spinner size="small" />;
  if (parentId === null && saved.length === 0 && drafts.length === 0) {
    return (
      <Text className={styles.muted} data-testid="queue-options-empty">
        {t('options.empty')}
      </Text>
    );
  }
  if (saved.length === 0 && drafts.length === 0) return null;

  return (
    <div className={styles.level} data-testid={`queue-options-level-${parentId ?? 'top'}`}>
      {saved.map((option) => (
        <SavedOption key={option.id} option={option} queueId={queueId} />
      ))}
      {drafts.map((draft) => (
        <div key={draft.key} className={styles.card} data-testid={`queue-option-draft-${draft.key}`}>
          <div className={styles.head}>
            <Badge appearance="outline" color="warning">
              {t('options.unsaved')}
            </Badge>
          </div>
          <OptionForm title="" message="" onSave={(title, message) => create(draft, title, message)} onCancel={() => drop(draft)} />
        </div>
      ))}
    </div>
  );
}

/** A saved option: view mode (key, title, message) or edit mode, and its sub-options below it. */
function SavedOption({ option, queueId }: { option: QueueOption; queueId: number }) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const { t: tc } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [childDrafts, setChildDrafts] = useState<Draft[]>([]);
  const id = `queue-option-${option.id}`;

  const update = async (title: string, message: string) => {
    await queueOptionsApi.update(option.id, {
      queueId,
      parentId: option.parentId ?? null,
      title,
      message,
      option: String(option.option),
    });
    await reloadTree(queueId);
    setEditing(false);
    toast.success(t('options.toasts.saved'));
  };

  const remove = async () => {
    try {
      await queueOptionsApi.remove(option.id);
      // Its sub-options went with it and the siblings after it were renumbered: the tree reloads.
      await reloadTree(queueId);
      toast.success(t('options.toasts.deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <div data-testid={id}>
      <div className={styles.card}>
        <div className={styles.head}>
          <Badge appearance="filled" color="brand" data-testid={`${id}-key`} aria-label={t('options.key')}>
            {String(option.option)}
          </Badge>
          {editing ? null : (
            <>
              <Text weight="semibold" className={styles.title} data-testid={`${id}-title`}>
                {option.title}
              </Text>
              <Tooltip content={t('options.addChild')} relationship="label">
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<TextBulletListAdd20Regular />}
                  data-testid={`${id}-add-child`}
                  onClick={() => setChildDrafts((d) => [...d, newDraft()])}
                />
              </Tooltip>
              <Tooltip content={tc('actions.edit')} relationship="label">
                <Button size="small" appearance="subtle" icon={<Edit20Regular />} data-testid={`${id}-edit`} onClick={() => setEditing(true)} />
              </Tooltip>
              <Tooltip content={tc('actions.delete')} relationship="label">
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<Delete20Regular />}
                  data-testid={`${id}-delete`}
                  onClick={() => setConfirming(true)}
                />
              </Tooltip>
            </>
          )}
        </div>
        {editing ? (
          <OptionForm title={option.title} message={option.message ?? ''} onSave={update} onCancel={() => setEditing(false)} />
        ) : option.message ? (
          <Text className={styles.message} data-testid={`${id}-message`}>
            {option.message}
          </Text>
        ) : (
          <Text className={styles.muted}>{t('options.noMessage')}</Text>
        )}
      </div>
      <div className={styles.children}>
        <OptionLevel
          queueId={queueId}
          parentId={option.id}
          options={Array.isArray(option.children) ? option.children : undefined}
          drafts={childDrafts}
          setDrafts={setChildDrafts}
        />
      </div>
      <ConfirmationDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('options.confirmDelete.title', { title: option.title })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={remove}
      >
        {t('options.confirmDelete.body')}
      </ConfirmationDialog>
    </div>
  );
}

interface OptionFormProps {
  title: string;
  message: string;
  /** Throws on failure (the form stays open and the error is toasted). */
  onSave: (title: string, message: string) => Promise<void>;
  onCancel: () => void;
}

/** Edit mode: title (required) and message, save or cancel. */
function OptionForm({ title: initialTitle, message: initialMessage, onSave, onCancel }: OptionFormProps) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const { t: tc } = useTranslation();
  const [title, setTitle] = useState(initialTitle);
  const [message, setMessage] = useState(initialMessage);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  const save = async () => {
    const result = validate(optionFormSchema, { title, message }, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    await run(() => onSave(result.data.title, result.data.message));
  };

  return (
    <div className={styles.level} data-testid="queue-option-form">
      <Field label={t('options.title')} required validationMessage={errors.title}>
        <Input
          value={title}
          maxLength={200}
          autoFocus
          data-testid="queue-option-title"
          onChange={(_, d) => {
            setTitle(d.value);
            setErrors((e) => (e.title ? { ...e, title: '' } : e));
          }}
          onKeyDown={(e) => {
            // The option form lives inside the queue form: Enter saves the option, not the queue.
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            }
          }}
        />
      </Field>
      <Field label={t('options.message')} validationMessage={errors.message}>
        <Textarea
          resize="vertical"
          rows={3}
          value={message}
          data-testid="queue-option-message"
          onChange={(_, d) => {
            setMessage(d.value);
            setErrors((e) => (e.message ? { ...e, message: '' } : e));
          }}
        />
      </Field>
      <div className={styles.actions}>
        <Button appearance="secondary" icon={<Dismiss20Regular />} disabled={saving} data-testid="queue-option-cancel" onClick={onCancel}>
          {tc('actions.cancel')}
        </Button>
        <Button
          appearance="primary"
          icon={saving ? <Spinner size="tiny" /> : <Save20Regular />}
          disabled={saving}
          data-testid="queue-option-save"
          onClick={() => void save()}
        >
          {tc('actions.save')}
        </Button>
      </div>
    </div>
  );
}
