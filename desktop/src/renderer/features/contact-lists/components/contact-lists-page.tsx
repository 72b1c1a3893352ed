import { Badge, Button, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, People20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toastError } from '../../../api/errors';
import { CrudListPage, RecordCell, mergeRecordEvent, type Column } from '../../../components/list-kit';
import { NARROW_TABLE_MAX } from '../../../components/responsive';
import { CONTACT_LISTS_KEY, contactListsApi, type ContactList } from '../api/contact-lists';
import { ContactListDialog } from './contact-list-dialog';

const useStyles = makeStyles({
  badges: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  // The WhatsApp split does not fit a narrow window: the count stays.
  split: { whiteSpace: 'nowrap', [`@media (max-width: ${NARROW_TABLE_MAX}px)`]: { display: 'none' } },
});

/** /contact-lists (spec 02 "Contact lists page"): name, contacts count and actions; the sample spreadsheet. */
export default function ContactListsPage() {
  const styles = useStyles();
  const { t, i18n } = useTranslation('contact-lists');
  const navigate = useNavigate();

  const columns: Column<ContactList>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (list) => (
        <RecordCell
          name={list.name}
          nameTestId={`contact-list-name-${list.id}`}
          badges={list.campaignId ? <Badge appearance="outline" size="small">{t('fromTag')}</Badge> : undefined}
        />
      ),
    },
    {
      id: 'contacts',
      header: t('columns.contacts'),
      width: 150,
      cellTestId: (list) => `contact-list-count-${list.id}`,
      cell: (list) => (
        <div className={styles.badges}>
          <Badge appearance="tint" color="informative">{list.contactsCount}</Badge>
          {list.validCount > 0 ? (
            <Badge appearance="tint" color="success" size="small" className={styles.split}>
              {t('counts.valid', { count: list.validCount })}
            </Badge>
          ) : null}
          {list.invalidCount > 0 ? (
            <Badge appearance="tint" color="danger" size="small" className={styles.split}>
              {t('counts.invalid', { count: list.invalidCount })}
            </Badge>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <CrudListPage<ContactList, { action: string; record?: ContactList; id?: number }>
      namespace="contact-lists"
      queryKey={[...CONTACT_LISTS_KEY, 'page']}
      listKey={CONTACT_LISTS_KEY}
      api={contactListsApi}
      testIds={{ page: 'contact-lists', row: 'contact-list' }}
      columns={columns}
      realtime={{ resource: 'ContactList', merge: (items, event) => mergeRecordEvent(items, event, { insert: 'start', onlyCreated: true }) }}
      actionsWidth={150}
      rowActions={(list) => (
        <Tooltip content={t('openItems', { name: list.name })} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<People20Regular />}
            data-testid={`contact-list-open-${list.id}`}
            onClick={() => void navigate(`/contact-lists/${list.id}/contacts`)}
          />
        </Tooltip>
      )}
      headerExtra={
        <Button
          icon={<ArrowDownload20Regular />}
          data-testid="contact-lists-sample"
          onClick={() => contactListsApi.downloadSample(i18n.language).catch(toastError)}
        >
          {t('sample')}
        </Button>
      }
      deleteTitleValues={(list) => ({ name: list.name })}
      dialog={({ item, onClose }) => <ContactListDialog list={item} onClose={onClose} />}
    />
  );
}
