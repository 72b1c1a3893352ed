import { createContext, memo, useContext } from 'react';
import { Button, makeStyles, mergeClasses, tokens, Tooltip } from '@fluentui/react-components';
import { CopyRegular, DeleteRegular, WarningRegular } from '@fluentui/react-icons';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { FLOW_START_NODE_ID, nodeOutputs, type FlowNodeType } from '@atrium/shared';
import { useTranslation } from 'react-i18next';

/** What the canvas's nodes may ask of the editor. */
export interface CanvasActions {
  duplicate: (id: string) => void;
  remove: (id: string) => void;
  edit: (id: string) => void;
  /** Nodes the last test passed through (green), and the one it waits at. */
  path: Set<string>;
  waitingAt: string | null;
  /** Nodes the editor warns about. */
  warned: Set<string>;
}

export const CanvasContext = createContext<CanvasActions>({
  duplicate: () => undefined,
  remove: () => undefined,
  edit: () => undefined,
  path: new Set(),
  waitingAt: null,
  warned: new Set(),
});

const useStyles = makeStyles({
  node: {
    position: 'relative',
    width: '220px',
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `2px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow4,
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground1,
  },
  selected: { border: `2px solid ${tokens.colorBrandStroke1}`, boxShadow: `0 0 0 3px ${tokens.colorBrandBackground2}` },
  passed: { border: `2px solid ${tokens.colorPaletteGreenBorderActive}` },
  waiting: { boxShadow: `0 0 0 4px ${tokens.colorPaletteGreenBackground2}` },
  warned: { border: `2px dashed ${tokens.colorPaletteMarigoldBorderActive}` },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    fontWeight: tokens.fontWeightSemibold,
  },
  title: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  body: { padding: tokens.spacingHorizontalS, whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: '120px', overflow: 'hidden' },
  outputs: { display: 'flex', flexDirection: 'column', gap: '2px', paddingBottom: tokens.spacingVerticalXS },
  output: { position: 'relative', textAlign: 'right', paddingRight: tokens.spacingHorizontalM, color: tokens.colorNeutralForeground2 },
  invalid: { color: tokens.colorPaletteRedForeground1 },
  timeout: { color: tokens.colorPaletteMarigoldForeground1 },
  handle: { width: '12px', height: '12px', backgroundColor: tokens.colorBrandBackground },
  warnIcon: { color: tokens.colorPaletteMarigoldForeground1 },
});

type Data = Record<string, unknown>;
type Settings = Record<string, unknown>;

/** One or two lines saying what the node does (its dialog has the rest). */
export const nodeSummary = (type: FlowNodeType, data: Data, t: (key: string, values?: Record<string, unknown>) => string): string => {
  const settings = (data.typebotIntegration ?? {}) as Settings;
  switch (type) {
    case 'start':
      return String(data.label ?? '');
    case 'message':
      return String(data.label ?? '');
    case 'interval':
      return t('nodes.intervalLabel', { sec: data.sec });
    case 'condition':
      return `{{${String(data.key ?? '')}}} ${t(`operators.${String(data.condition ?? 'equals')}`)} ${String(data.value ?? '')}`;
    case 'menu':
      return String(data.message ?? '');
    case 'randomizer':
      return '';
    case 'singleBlock':
      return t('nodes.cards', { count: ((data.elements as unknown[]) ?? []).length });
    case 'ticket':
      return String((data.queue as { name?: string })?.name ?? '');
    case 'typebot':
      return String(settings.name ?? '');
    case 'openai':
      return String(settings.name ?? '');
    case 'question':
      return `${String(settings.message ?? '')}\n→ {{${String(settings.answerKey ?? '')}}}`;
    default:
      return String(data.url ?? '');
  }
};

/** The label of an output: the option's text, the randomizer's share, a condition's branch. */
const outputLabel = (type: FlowNodeType, data: Data, handle: string, t: (key: string, values?: Record<string, unknown>) => string): string => {
  if (handle === 'invalid') return t('outputs.invalid');
  if (handle === 'timeout') return t('outputs.timeout');
  if (type === 'menu') {
    const option = ((data.arrayOption as { number: number; value: string }[]) ?? []).find((o) => `a${o.number}` === handle);
    return option ? `${option.number}. ${option.value}` : handle;
  }
  if (type === 'randomizer') {
    const percent = Number(data.percent ?? 50);
    return handle === 'a' ? `A ${percent}%` : `B ${100 - percent}%`;
  }
  if (type === 'condition') return t(`outputs.${handle}`);
  return '';
};

/** Every node type on the canvas: a header with its kind and buttons, its summary, its input and outputs. */
export const FlowNodeCard = memo(function FlowNodeCard({ id, type, data, selected }: NodeProps) {
  const styles = useStyles();
  const { t } = useTranslation('flowbuilder');
  const actions = useContext(CanvasContext);
  const nodeType = type as FlowNodeType;
  const outputs = nodeOutputs({ type: nodeType, data });
  const isStart = id === FLOW_START_NODE_ID;
  return (
    <div
      className={mergeClasses(
        styles.node,
        actions.warned.has(id) && styles.warned,
        actions.path.has(id) && styles.passed,
        actions.waitingAt === id && styles.waiting,
        selected && styles.selected,
      )}
      data-testid={`flow-node-${id}`}
      data-node-type={nodeType}
      data-passed={actions.path.has(id) ? 'true' : undefined}
      onDoubleClick={() => actions.edit(id)}
    >
      {isStart ? null : <Handle type="target" position={Position.Left} className={styles.handle} />}
      <div className={styles.header}>
        {actions.warned.has(id) ? (
          <Tooltip content={t('warnings.nodeHint')} relationship="label">
            <WarningRegular className={styles.warnIcon} />
          </Tooltip>
        ) : null}
        <span className={styles.title}>{t(`types.${nodeType}`)}</span>
        {isStart ? null : (
          <>
            <Button
              size="small"
              appearance="subtle"
              icon={<CopyRegular />}
              aria-label={t('nodes.duplicate')}
              data-testid={`flow-node-duplicate-${id}`}
              className="nodrag"
              onClick={() => actions.duplicate(id)}
            />
            <Button
              size="small"
              appearance="subtle"
              icon={<DeleteRegular />}
              aria-label={t('nodes.delete')}
              data-testid={`flow-node-delete-${id}`}
              className="nodrag"
              onClick={() => actions.remove(id)}
            />
          </>
        )}
      </div>
      <div className={styles.body}>{nodeSummary(nodeType, data, t)}</div>
      {outputs.length > 0 ? (
        <div className={styles.outputs}>
          {outputs.map((o) => (
            <div key={o.handle} className={mergeClasses(styles.output, o.kind === 'invalid' && styles.invalid, o.kind === 'timeout' && styles.timeout)}>
              {outputLabel(nodeType, data, o.handle, t) || '\u00a0'}
              <Handle id={o.handle} type="source" position={Position.Right} className={styles.handle} data-testid={`flow-handle-${id}-${o.handle}`} />
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
});
