import { makeStyles, Spinner } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', minHeight: '200px', width: '100%' },
});

/** A centred spinner: the session restore, a lazy page loading. */
export function LoadingScreen({ label }: { label?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.root} role="status" aria-busy="true">
      <Spinner size="medium" label={label} />
    </div>
  );
}
