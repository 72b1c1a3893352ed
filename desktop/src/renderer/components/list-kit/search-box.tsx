import { useState } from 'react';
import { Input, makeStyles } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { useDebouncedValue, SEARCH_DEBOUNCE_MS } from '../../hooks/use-debounced-value';

const useStyles = makeStyles({
  search: { minWidth: '0', maxWidth: '220px' },
});

/**
 * A list's search: what the box shows (`search`, `setSearch`) and the term to ask the server with
 * (`searchParam`), trimmed (and lower-cased with `lowerCase`) once typing has stopped for 500 ms
 * (spec 02 section 9). Put `searchParam` in the list's query key.
 */
export function useSearch({ lowerCase = false, delay = SEARCH_DEBOUNCE_MS }: { lowerCase?: boolean; delay?: number } = {}) {
  const [search, setSearch] = useState('');
  const trimmed = search.trim();
  const searchParam = useDebouncedValue(lowerCase ? trimmed.toLowerCase() : trimmed, delay);
  return { search, setSearch, searchParam };
}

export interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** Placeholder and accessible name. */
  label: string;
  testId?: string;
}

/** The search box of a list page's header (magnifier, placeholder as its name). */
export function SearchBox({ value, onChange, label, testId }: SearchBoxProps) {
  const styles = useStyles();
  return (
    <Input
      className={styles.search}
      contentBefore={<Search20Regular />}
      placeholder={label}
      aria-label={label}
      type="search"
      value={value}
      data-testid={testId}
      onChange={(_, d) => onChange(d.value)}
    />
  );
}
