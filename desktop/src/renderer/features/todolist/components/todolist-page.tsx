import { useState } from 'react';
import { Button, Input, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Checkmark20Regular, Delete20Regular, Dismiss20Regular, Edit20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../i18n/format';
import { usePreferences } from '../../../stores/preferences-store';
import { addTodo, editTodo, removeTodo } from '../hooks/todo-rules';

const useStyles = makeStyles({
  form: { display: 'flex', gap: tokens.spacingHorizontalS, maxWidth: '720px' },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  text: { flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0, wordBreak: 'break-word' },
  meta: { color: tokens.colorNeutralForeground3 },
});

/** /todolist: personal tasks kept on this device (preferences `todoList`). */
export default function TodolistPage() {
  const styles = useStyles();
  const { t } = useTranslation('todolist');
  const todos = usePreferences((s) => s.todoList);
  const setPreference = usePreferences((s) => s.set);
  const [text, setText] = useState('');
  const [editingId, setEditingId] = useState<string | null>(null);
  const [editText, setEditText] = useState('');

  const add = () => {
    if (!text.trim()) return;
    setPreference('todoList', addTodo(todos, text));
    setText('');
  };
  const saveEdit = () => {
    if (editingId && editText.trim()) setPreference('todoList', editTodo(todos, editingId, editText));
    setEditingId(null);
  };

  return (
    <PageContainer>
      <PageHeader title={t('title')} />
      <form noValidate
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <Input style={{ flex: 1 }} value={text} placeholder={t('placeholder')} aria-label={t('placeholder')} data-testid="todo-input" onChange={(_, d) => setText(d.value)} />
        <Button appearance="primary" type="submit" icon={<Add20Regular />} data-testid="todo-add">
          {t('add')}
        </Button>
      </form>
      <PageContent>
        {todos.length === 0 ? (
          <EmptyState title={t('empty')} />
        ) : (
          <ul className={styles.list}>
            {todos.map((item) => (
              <li key={item.id} className={styles.item} data-testid="todo-item">
                {editingId === item.id ? (
                  <form noValidate
                    style={{ flex: 1, display: 'flex', gap: 8 }}
                    onSubmit={(e) => {
                      e.preventDefault();
                      saveEdit();
                    }}
                  >
                    <Input style={{ flex: 1 }} autoFocus value={editText} aria-label={t('edit')} data-testid="todo-edit-input" onChange={(_, d) => setEditText(d.value)} />
                    <Button type="submit" appearance="primary" icon={<Checkmark20Regular />} aria-label={t('save')} data-testid="todo-save" />
                    <Button icon={<Dismiss20Regular />} aria-label={t('cancel')} onClick={() => setEditingId(null)} />
                  </form>
                ) : (
                  <>
                    <div className={styles.text}>
                      <Text>{item.text}</Text>
                      <Text size={200} className={styles.meta}>
                        {t('created', { date: formatDateTime(item.createdAt) })}
                        {item.updatedAt !== item.createdAt ? ` · ${t('updated', { date: formatDateTime(item.updatedAt) })}` : ''}
                      </Text>
                    </div>
                    <Button
                      appearance="subtle"
                      icon={<Edit20Regular />}
                      aria-label={t('edit')}
                      data-testid="todo-edit"
                      onClick={() => {
                        setEditingId(item.id);
                        setEditText(item.text);
                      }}
                    />
                    <Button
                      appearance="subtle"
                      icon={<Delete20Regular />}
                      aria-label={t('remove')}
                      data-testid="todo-remove"
                      onClick={() => setPreference('todoList', removeTodo(todos, item.id))}
                    />
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </PageContent>
    </PageContainer>
  );
}
