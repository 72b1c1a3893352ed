import { useState } from 'react';
import { Field, Input, MessageBar, MessageBarBody, Select, Tab, TabList, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import {
  CAMPAIGN_ITEM_PLACEHOLDERS,
  CAMPAIGN_MEDIA_MAX_BYTES,
  CAMPAIGN_MEDIA_TYPES,
  CAMPAIGN_MESSAGE_FIELDS,
  CAMPAIGN_MESSAGE_MAX,
  createCampaignSchema,
  updateCampaignSchema,
  type UpdateCampaignInput,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { AttachmentField } from '../../../components/form/attachment-field';
import { DateTimeInput } from '../../../components/form/date-time-inputs';
import { FormDialog } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { CAMPAIGNS_KEY, campaignsApi, choicesApi, type Campaign, type Option } from '../api/campaigns';

const useStyles = makeStyles({
  content: { minHeight: '420px' },
  row: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'start' },
  tabs: { flexWrap: 'wrap' },
  // The dialog's column scrolls: the notice keeps its height instead of shrinking under its text.
  notice: { flexShrink: 0 },
  hint: { color: tokens.colorNeutralForeground3 },
});

const MEDIA_MAX_MB = CAMPAIGN_MEDIA_MAX_BYTES / (1024 * 1024);
const VARIABLES = [...CAMPAIGN_ITEM_PLACEHOLDERS, '{{firstName}}', '{{name}}', '{{ms}}', '{{date}}', '{{hora}}'].join(', ');

type MessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];
type Values = Record<MessageField, string> & {
  name: string;
  whatsappId: string;
  contactListId: string;
  tagListId: string;
  fileListId: string;
  /** Local "yyyy-MM-ddTHH:mm" ('' for none). */
  scheduledAt: string;
  file: File | null;
  dropMedia: boolean;
};

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as the local "yyyy-MM-ddTHH:mm" of the date-time input. */
const toLocalInput = (iso: string | null): string => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const idText = (id: number | null | undefined) => (id ? String(id) : '');
const idOf = (text: string) => (text ? Number(text) : '');

const acceptsMedia = (file: File) =>
  file.size <= CAMPAIGN_MEDIA_MAX_BYTES &&
  CAMPAIGN_MEDIA_TYPES.some((type) => (type.endsWith('/*') ? file.type.startsWith(type.slice(0, -1)) : file.type === type));

function Choice({
  label,
  options,
  current,
  testId,
  disabled,
  value,
  onChange,
  noneLabel,
  error,
}: {
  label: string;
  options: Option[] | undefined;
  /** The campaign's own choice, shown while the options load (a select cannot show a value it has no option for). */
  current?: Option | null;
  testId: string;
  disabled: boolean;
  value: string;
  onChange: (value: string) => void;
  noneLabel: string;
  error?: string;
}) {
  const loaded = options ?? [];
  const all = current && !loaded.some((o) => o.id === current.id) ? [current, ...loaded] : loaded;
  return (
    <Field label={label} validationMessage={error}>
      <Select value={value} disabled={disabled} data-testid={testId} onChange={(_, d) => onChange(d.value)}>
        <option value="">{noneLabel}</option>
        {all.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/**
 * Add or edit a campaign (spec 02 "Campaigns page", sections 3-5): name, connection, contact list and/or
 * tag, file list, start time, message variants 1 to 5 and a file. Read-only when the campaign is no longer
 * editable (running, finished, or starting within the hour); the server holds the same rule.
 */
export function CampaignDialog({ campaign, onClose }: { campaign?: Campaign; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('campaigns');
  /** Created by an earlier attempt whose upload failed: saving again updates it. */
  const [created, setCreated] = useState<Campaign | null>(null);
  const [tab, setTab] = useState<MessageField>('message1');
  const target = campaign ?? created;
  const readOnly = !!campaign && !campaign.editable;

  const connections = useQuery(['campaign-choices', 'connections'], choicesApi.connections);
  const lists = useQuery(['campaign-choices', 'contact-lists'], choicesApi.contactLists);
  const tags = useQuery(['campaign-choices', 'tags'], choicesApi.tags);
  const fileLists = useQuery(['campaign-choices', 'file-lists'], choicesApi.fileLists);

  const initial: Values = {
    name: campaign?.name ?? '',
    whatsappId: idText(campaign?.whatsappId),
    contactListId: idText(campaign?.contactListId),
    tagListId: idText(campaign?.tagListId ?? campaign?.tagId),
    fileListId: idText(campaign?.fileListId),
    scheduledAt: toLocalInput(campaign?.scheduledAt ?? null),
    message1: campaign?.message1 ?? '',
    message2: campaign?.message2 ?? '',
    message3: campaign?.message3 ?? '',
    message4: campaign?.message4 ?? '',
    message5: campaign?.message5 ?? '',
    file: null,
    dropMedia: false,
  };

  return (
    <FormDialog<Values, UpdateCampaignInput>
      title={readOnly ? t('dialog.viewTitle') : campaign ? t('dialog.editTitle') : t('dialog.addTitle')}
      schema={target ? updateCampaignSchema : createCampaignSchema}
      initialValues={initial}
      toPayload={(v) => ({
        name: v.name,
        whatsappId: idOf(v.whatsappId),
        contactListId: idOf(v.contactListId),
        tagListId: idOf(v.tagListId),
        fileListId: idOf(v.fileListId),
        scheduledAt: v.scheduledAt ? new Date(v.scheduledAt).toISOString() : '',
        ...Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((f) => [f, v[f]])),
      })}
      // The tab holding a wrong message comes to the front.
      onInvalid={(errors) => {
        const wrong = CAMPAIGN_MESSAGE_FIELDS.find((f) => errors[f]);
        if (wrong) setTab(wrong);
      }}
      readOnly={readOnly}
      width={680}
      contentClassName={styles.content}
      testId="campaign-dialog"
      saveTestId="campaign-save"
      cancelTestId="campaign-cancel"
      cancelLabel={readOnly ? t('dialog.close') : undefined}
      onClose={onClose}
      onSubmit={async (data, values) => {
        const saved = target ? await campaignsApi.update(target.id, data) : await campaignsApi.create(data as Parameters<typeof campaignsApi.create>[0]);
        if (!target) setCreated(saved);
        try {
          if (values.file) await campaignsApi.uploadMedia(saved.id, values.file);
          else if (values.dropMedia && saved.mediaPath) await campaignsApi.removeMedia(saved.id);
        } finally {
          void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
        }
        toast.success(t('toasts.saved'));
      }}
    >
      {(form) => {
        const currentMedia = form.values.file?.name ?? (form.values.dropMedia ? null : (target?.mediaName ?? null));
        const pick = (picked: File) => {
          if (!acceptsMedia(picked)) {
            toast.error(t('dialog.invalidFile', { max: MEDIA_MAX_MB }));
            return;
          }
          form.set('file', picked);
          form.set('dropMedia', false);
        };
        return (
          <>
            {readOnly ? (
              <MessageBar layout="multiline" intent="info" className={styles.notice} data-testid="campaign-read-only">
                <MessageBarBody>{t('dialog.readOnly')}</MessageBarBody>
              </MessageBar>
            ) : null}
            <Field label={t('dialog.name')} required {...form.field('name')}>
              <Input maxLength={50} autoFocus disabled={readOnly} data-testid="campaign-name" {...form.text('name')} />
            </Field>
            <div className={styles.row}>
              <Choice
                label={t('dialog.whatsapp')}
                options={connections.data}
                current={campaign?.whatsapp}
                testId="campaign-whatsapp"
                disabled={readOnly}
                noneLabel={t('none')}
                value={form.values.whatsappId}
                onChange={(v) => form.set('whatsappId', v)}
                error={form.errors.whatsappId}
              />
              <Field label={t('dialog.scheduledAt')} hint={t('dialog.scheduledHint')} {...form.field('scheduledAt')}>
                <DateTimeInput
                  label={t('dialog.scheduledAt')}
                  value={form.values.scheduledAt}
                  disabled={readOnly}
                  testId="campaign-scheduled-at"
                  onChange={(v) => form.set('scheduledAt', v)}
                />
              </Field>
            </div>
            <div className={styles.row}>
              <Choice
                label={t('dialog.contactList')}
                options={lists.data}
                current={campaign?.contactList}
                testId="campaign-contact-list"
                disabled={readOnly}
                noneLabel={t('none')}
                value={form.values.contactListId}
                onChange={(v) => form.set('contactListId', v)}
                error={form.errors.contactListId}
              />
              <Choice
                label={t('dialog.tag')}
                options={tags.data}
                current={campaign?.tag}
                testId="campaign-tag"
                disabled={readOnly}
                noneLabel={t('none')}
                value={form.values.tagListId}
                onChange={(v) => form.set('tagListId', v)}
                error={form.errors.tagListId}
              />
              <Choice
                label={t('dialog.fileList')}
                options={fileLists.data}
                testId="campaign-file-list"
                disabled={readOnly}
                noneLabel={t('none')}
                value={form.values.fileListId}
                onChange={(v) => form.set('fileListId', v)}
                error={form.errors.fileListId}
              />
            </div>
            <Text weight="semibold">{t('dialog.messages')}</Text>
            <Text size={200} className={styles.hint} data-testid="campaign-variants-hint">
              {t('dialog.variantsHint')}
            </Text>
            <TabList size="small" className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as MessageField)}>
              {CAMPAIGN_MESSAGE_FIELDS.map((f, i) => (
                <Tab key={f} value={f} data-testid={`campaign-tab-${i + 1}`}>
                  {t('dialog.message', { n: i + 1 })}
                  {form.values[f].trim() ? ' •' : ''}
                </Tab>
              ))}
            </TabList>
            <Field
              label={t('dialog.message', { n: CAMPAIGN_MESSAGE_FIELDS.indexOf(tab) + 1 })}
              {...form.field(tab)}
              hint={form.errors[tab] ? undefined : t('dialog.variablesHint', { variables: VARIABLES, example: '{empresa}' })}
            >
              <Textarea
                key={tab}
                rows={6}
                resize="vertical"
                maxLength={CAMPAIGN_MESSAGE_MAX}
                disabled={readOnly}
                data-testid={`campaign-message-${CAMPAIGN_MESSAGE_FIELDS.indexOf(tab) + 1}`}
                {...form.text(tab)}
              />
            </Field>
            {readOnly ? (
              currentMedia ? (
                <Field label={t('dialog.attachment')}>
                  <Text data-testid="campaign-media-name">{currentMedia}</Text>
                </Field>
              ) : null
            ) : (
              <AttachmentField
                label={t('dialog.attachment')}
                attachLabel={t('dialog.attach')}
                removeLabel={t('dialog.removeAttachment')}
                accept={CAMPAIGN_MEDIA_TYPES.join(',')}
                fileName={currentMedia}
                onPick={pick}
                onRemove={() => {
                  form.set('file', null);
                  form.set('dropMedia', true);
                }}
                testIdPrefix="campaign"
              />
            )}
          </>
        );
      }}
    </FormDialog>
  );
}
