import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CrudListPage, type Column } from '../../../components/list-kit';
import { useCurrentUser } from '../../../stores/auth-store';
import { TAGS_KEY, tagsApi, type Tag } from '../api/tags';
import { TagModal } from './tag-modal';
import { filledWith } from '../../../lib/color';

const useStyles = makeStyles({
  chip: {
    display: 'inline-block',
    maxWidth: '100%',
    padding: `2px ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    fontWeight: tokens.fontWeightSemibold,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'middle',
  },
  name: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, minWidth: 0, paddingBlock: '4px' },
});

/** /tags: the company's tags with how many tickets carry each (spec 02 section 2). */
export default function TagsPage() {
  const styles = useStyles();
  const { t } = useTranslation('tags');
  const user = useCurrentUser();
  const isAdmin = user?.profile === 'admin' || !!user?.super;

  const columns: Column<Tag>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (tag) => (
        <span className={styles.name}>
          <span className={styles.chip} style={filledWith(tag.color)} data-testid={`tag-chip-${tag.id}`}>
            {tag.name}
          </span>
          {tag.kanban === 1 ? (
            <Badge appearance="outline" size="small" data-testid={`tag-kanban-${tag.id}`}>
              {t('kanbanBadge')}
            </Badge>
          ) : null}
        </span>
      ),
    },
    { id: 'tickets', header: t('columns.tickets'), width: 76, cellTestId: (tag) => `tag-count-${tag.id}`, cell: (tag) => tag.ticketsCount ?? 0 },
  ];

  return (
    <CrudListPage<Tag>
      namespace="tags"
      queryKey={[...TAGS_KEY, 'page']}
      listKey={TAGS_KEY}
      api={tagsApi}
      testIds={{ page: 'tags', row: 'tag' }}
      layout="fixed"
      columns={columns}
      // Only admins may change a tag (PUT /tags/{id}); anyone may delete one.
      canEdit={isAdmin}
      deleteTitleValues={(tag) => ({ name: tag.name })}
      dialog={({ item, onClose }) => <TagModal tag={item} canSetKanban={isAdmin} onClose={onClose} />}
    />
  );
}
