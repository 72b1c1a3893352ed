import { useState } from 'react';
import { Link as FluentLink, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkCircle20Filled, DismissCircle20Filled, QuestionCircle20Regular } from '@fluentui/react-icons';
import type { ContactListImportEvent } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { queryClient, useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { CrudListPage, mergeRecordEvent, type Column } from '../../../components/list-kit';
import { NARROW_TABLE_MAX } from '../../../components/responsive';
import { CONTACT_LISTS_KEY, contactListItemsApi, contactListsApi, ITEMS_KEY, type ContactList, type ContactListItem } from '../api/contact-lists';
import { ContactListItemDialog } from './contact-list-item-dialog';
import { ImportButtons, ImportPanel } from './import-panel';

const useStyles = makeStyles({
  valid: { color: tokens.colorPaletteGreenForeground1, display: 'inline-flex' },
  invalid: { color: tokens.colorPaletteRedForeground1, display: 'inline-flex' },
  unchecked: { color: tokens.colorNeutralForeground3, display: 'inline-flex' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' },
  // In a narrow window the number column goes and the number shows under the name.
  narrowNumber: {
    display: 'none',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    [`@media (max-width: ${NARROW_TABLE_MAX}px)`]: { display: 'block' },
  },
});

type ItemEvent = { action: string; record?: ContactListItem; id?: number; contactListId?: number };

/** Found on WhatsApp, not there, or not checked yet (spec 02 "Contact list items page": the whatsapp-valid indicator). */
function ValidIcon({ item }: { item: ContactListItem }) {
  const styles = useStyles();
  const { t } = useTranslation('contact-lists');
  const [label, className, Icon] = !item.checkedAt
    ? [t('valid.unchecked'), styles.unchecked, QuestionCircle20Regular]
    : item.isWhatsappValid
      ? [t('valid.yes'), styles.valid, CheckmarkCircle20Filled]
      : [t('valid.no'), styles.invalid, DismissCircle20Filled];
  return (
    <Tooltip content={label} relationship="label">
      <span className={className} data-testid={`contact-list-item-valid-${item.id}`} data-state={!item.checkedAt ? 'unchecked' : item.isWhatsappValid ? 'valid' : 'invalid'}>
        <Icon />
      </span>
    </Tooltip>
  );
}

/**
 * /contact-lists/:contactListId/contacts (spec 02 "Contact list items page"): search, back link, spreadsheet
 * import with its progress (realtime), add, and the contacts with the whatsapp-valid indicator.
 */
export default function ContactListItemsPage() {
  const styles = useStyles();
  const { t } = useTranslation('contact-lists');
  const contactListId = Number(useParams().contactListId);
  const list = useQuery<ContactList>([...CONTACT_LISTS_KEY, 'one', contactListId], () => contactListsApi.get(contactListId));
  const [current, setCurrent] = useState<ContactListImportEvent['import'] | null>(null);
  const itemsKey = [...ITEMS_KEY, contactListId] as const;

  // The import's progress (throttled by the server), and the list's counts as the check goes.
  useRealtimeEvent<ContactListImportEvent | ItemEvent>('ContactListItem', (event) => {
    if (event.contactListId !== contactListId) return;
    if (event.action === 'import') setCurrent((event as ContactListImportEvent).import);
    if (event.action === 'reload') {
      void queryClient.invalidateQueries({ queryKey: itemsKey });
      void list.refetch();
    }
  });
  useRealtimeEvent<{ action: string; record?: ContactList }>('ContactList', (event) => {
    if (event.record?.id === contactListId) list.setData(event.record);
  });

  const columns: Column<ContactListItem>[] = [
    { id: 'whatsapp', header: t('items.columns.whatsapp'), width: 84, cell: (item) => <ValidIcon item={item} /> },
    {
      id: 'name',
      header: t('items.columns.name'),
      cell: (item) => (
        <>
          <span className={styles.ellipsis}>{item.name}</span>
          <span className={mergeClasses(styles.ellipsis, styles.narrowNumber)}>{item.number}</span>
        </>
      ),
    },
    { id: 'number', header: t('items.columns.number'), width: 150, secondary: true, cell: (item) => item.number },
    { id: 'email', header: t('items.columns.email'), secondary: true, cell: (item) => <span className={styles.ellipsis}>{item.email}</span> },
  ];

  return (
    <CrudListPage<ContactListItem, ItemEvent>
      namespace="contact-lists"
      keyPrefix="items"
      queryKey={[...itemsKey, 'page']}
      listKey={itemsKey}
      api={contactListItemsApi(contactListId)}
      testIds={{ page: 'contact-list-items', row: 'contact-list-item' }}
      columns={columns}
      layout="fixed"
      subtitle={
        <>
          <FluentLink as="span">
            <Link to="/contact-lists" data-testid="contact-list-items-back">
              {t('back')}
            </Link>
          </FluentLink>
          {list.data ? <span data-testid="contact-list-items-list-name"> · {list.data.name}</span> : null}
        </>
      }
      headerExtra={<ImportButtons list={list.data} onStarted={setCurrent} />}
      banner={<ImportPanel list={list.data} current={current} />}
      realtime={{
        resource: 'ContactListItem',
        merge: (items, event) => (event.contactListId === contactListId && event.action !== 'import' && event.action !== 'reload' ? mergeRecordEvent(items, event) : items),
      }}
      deleteTitleValues={(item) => ({ name: item.name })}
      dialog={({ item, onClose }) => <ContactListItemDialog contactListId={contactListId} item={item} onClose={onClose} />}
    />
  );
}
