import { useState } from 'react';
import { Badge, Button, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkRegular, CopyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { OpenApiDocument, OpenApiParameter } from '../api/messages-api';
import { curlExample, fieldsOf, operationsOf, typeLabel, type FieldRow, type OperationEntry } from './openapi-model';

const useStyles = makeStyles({
  operation: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', minWidth: 0 },
  method: { fontFamily: tokens.fontFamilyMonospace, minWidth: '52px', justifyContent: 'center' },
  path: { fontFamily: tokens.fontFamilyMonospace, fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  heading: { margin: 0, marginTop: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
  fields: { display: 'flex', flexDirection: 'column', margin: 0, padding: 0, listStyle: 'none' },
  field: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, 220px) minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    paddingTop: tokens.spacingVerticalXS,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    // A narrow window: the name above its description.
    '@media (max-width: 599px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  fieldName: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  response: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'baseline', minWidth: 0 },
  status: { fontFamily: tokens.fontFamilyMonospace, flexShrink: 0 },
  pre: {
    position: 'relative',
    margin: 0,
    padding: tokens.spacingHorizontalM,
    paddingRight: '44px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  copy: { position: 'absolute', top: tokens.spacingVerticalXS, right: tokens.spacingHorizontalXS },
});

/** A block of code with a copy button. */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  const styles = useStyles();
  const { t } = useTranslation('messages-api');
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(() => setCopied(true));
  };
  return (
    <pre className={styles.pre} data-testid={testId}>
      {code}
      <Button
        className={styles.copy}
        appearance="subtle"
        size="small"
        icon={copied ? <CheckmarkRegular /> : <CopyRegular />}
        aria-label={copied ? t('doc.copied') : t('doc.copy')}
        title={copied ? t('doc.copied') : t('doc.copy')}
        onClick={copy}
      />
    </pre>
  );
}

function Fields({ rows, testId }: { rows: FieldRow[]; testId: string }) {
  const styles = useStyles();
  const { t } = useTranslation('messages-api');
  return (
    <ul className={styles.fields} data-testid={testId}>
      {rows.map((row) => {
        const notes = [
          row.maxLength !== undefined ? t('doc.maxLength', { max: row.maxLength }) : null,
          row.minimum !== undefined && row.maximum !== undefined ? t('doc.range', { min: row.minimum, max: row.maximum }) : null,
          row.enumValues ? t('doc.oneOf', { values: row.enumValues.join(', ') }) : null,
          row.defaultValue !== undefined ? t('doc.defaultValue', { value: row.defaultValue }) : null,
        ].filter(Boolean);
        return (
          <li key={row.name} className={styles.field} data-field={row.name}>
            <div className={styles.fieldName}>
              <span className={styles.code}>{row.name}</span>
              <div className={styles.badges}>
                <Badge appearance="tint" color="informative" size="small">
                  {row.type}
                </Badge>
                <Badge appearance="outline" color={row.required ? 'danger' : 'subtle'} size="small">
                  {row.required ? t('doc.required') : t('doc.optional')}
                </Badge>
              </div>
            </div>
            <Text size={200}>
              {row.description}
              {row.description && notes.length > 0 ? ' ' : ''}
              {notes.length > 0 ? <span className={styles.muted}>({notes.join('; ')})</span> : null}
            </Text>
          </li>
        );
      })}
    </ul>
  );
}

const parameterRows = (doc: OpenApiDocument, parameters: OpenApiParameter[], where: (p: OpenApiParameter) => string): FieldRow[] =>
  parameters.map((p) => ({
    name: `${p.name} (${where(p)})`,
    type: typeLabel(doc, p.schema),
    required: p.required ?? false,
    description: p.description,
    maxLength: p.schema?.maxLength,
  }));

function Operation({ doc, entry, base }: { doc: OpenApiDocument; entry: OperationEntry; base: string }) {
  const styles = useStyles();
  const { t } = useTranslation('messages-api');
  const { operation } = entry;
  const id = operation.operationId ?? `${entry.method}-${entry.path}`;
  const known = operation.operationId && ['sendMessage', 'getMessageStatus'].includes(operation.operationId);
  const where = (p: OpenApiParameter) => (p.in === 'header' ? t('doc.inHeader') : p.in === 'path' ? t('doc.inPath') : t('doc.inQuery'));
  const contents = Object.entries(operation.requestBody?.content ?? {});
  const bodyLabel = (type: string) => (type === 'application/json' ? t('doc.jsonBody') : type === 'multipart/form-data' ? t('doc.multipartBody') : type);
  const examples = contents.length > 0 ? contents.map(([type]) => curlExample(base, entry, type)) : [curlExample(base, entry)];
  return (
    <section className={styles.operation} data-testid={`api-op-${id}`} aria-labelledby={`api-op-title-${id}`}>
      <div className={styles.title}>
        <Badge className={styles.method} appearance="filled" color={entry.method === 'get' ? 'brand' : 'success'}>
          {entry.method.toUpperCase()}
        </Badge>
        <span className={styles.path}>{entry.path}</span>
      </div>
      <Text as="h3" size={400} weight="semibold" className={styles.heading} id={`api-op-title-${id}`}>
        {known ? t(`operations.${operation.operationId}.summary`) : operation.summary}
      </Text>
      <Text>{known ? t(`operations.${operation.operationId}.description`) : operation.description}</Text>

      {operation.parameters && operation.parameters.length > 0 ? (
        <>
          <Text as="h4" weight="semibold" className={styles.heading}>
            {t('doc.parameters')}
          </Text>
          <Fields rows={parameterRows(doc, operation.parameters, where)} testId={`api-op-${id}-parameters`} />
        </>
      ) : null}

      {contents.map(([type, media]) => (
        <div key={type}>
          <Text as="h4" weight="semibold" className={styles.heading}>
            {t('doc.requestBody')}: {bodyLabel(type)}
          </Text>
          <Fields rows={fieldsOf(doc, media.schema)} testId={`api-op-${id}-body-${type.split('/')[1]}`} />
        </div>
      ))}

      <Text as="h4" weight="semibold" className={styles.heading}>
        {t('doc.responses')}
      </Text>
      <ul className={styles.fields} data-testid={`api-op-${id}-responses`}>
        {Object.entries(operation.responses).map(([status, response]) => {
          const ok = status.startsWith('2');
          const rows = ok ? fieldsOf(doc, response.content?.['application/json']?.schema) : [];
          return (
            <li key={status} className={mergeClasses(styles.field)} data-status={status}>
              <div className={styles.response}>
                <Badge className={styles.status} appearance="tint" color={ok ? 'success' : Number(status) >= 500 ? 'danger' : 'warning'}>
                  {status}
                </Badge>
              </div>
              <div>
                <Text size={200}>{response.description}</Text>
                {response.headers ? (
                  <Text size={200} block className={styles.muted}>
                    {t('doc.headers', { names: Object.keys(response.headers).join(', ') })}
                  </Text>
                ) : null}
                {rows.length > 0 ? <Fields rows={rows} testId={`api-op-${id}-response-${status}`} /> : null}
              </div>
            </li>
          );
        })}
      </ul>

      <Text as="h4" weight="semibold" className={styles.heading}>
        {t('doc.example')}
      </Text>
      {examples.map((code, i) => (
        <CodeBlock key={i} code={code} testId={`api-op-${id}-example`} />
      ))}
    </section>
  );
}

/** The operations of the messages API's OpenAPI document, in words and examples. */
export function OpenApiView({ doc, base }: { doc: OpenApiDocument; base: string }) {
  return (
    <div data-testid="api-doc">
      {operationsOf(doc).map((entry) => (
        <Operation key={`${entry.method} ${entry.path}`} doc={doc} entry={entry} base={base} />
      ))}
    </div>
  );
}
