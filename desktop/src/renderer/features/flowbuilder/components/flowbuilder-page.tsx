import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Badge,
  Button,
  Menu,
  MenuButton,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowLeftRegular, BeakerRegular, SaveRegular, WarningRegular } from '@fluentui/react-icons';
import {
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { FLOW_NODE_TYPES, FLOW_START_NODE_ID, edgeHandle, flowWarnings, type FlowGraph, type FlowNodeType, type FlowWarning } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { PageContainer } from '../../../components/page-container';
import { toast } from '../../../components/toasts';
import { flowDocumentKey, flowsApi, FLOWS_KEY } from '../api/flows';
import {
  addNode,
  defaultData,
  dropDraft,
  duplicateNode,
  fromDocument,
  loadDraft,
  removeNodes,
  sameDocument,
  saveDraft,
  storeVariables,
  toDocument,
  type CanvasGraph,
  type CanvasNode,
} from '../lib/graph';
import { ContentDialog } from './content-dialog';
import { CanvasContext, FlowNodeCard, type CanvasActions } from './flow-node';
import { LeaveDialog, useLeaveGuard } from './leave-guard';
import { MEDIA_TYPES, MediaDialog, type MediaNodeType } from './media-dialog';
import { DIALOG_TYPES, NodeDialog, type DialogNodeType } from './node-dialog';
import { TestPanel } from './test-panel';

const useStyles = makeStyles({
  page: { gap: tokens.spacingVerticalS },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  title: { flex: 1, minWidth: '160px', margin: 0 },
  hint: { color: tokens.colorNeutralForeground3 },
  body: {
    flex: 1,
    minHeight: 0,
    display: 'flex',
    borderRadius: tokens.borderRadiusLarge,
    overflow: 'hidden',
    boxShadow: tokens.shadow4,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  canvas: { flex: 1, minWidth: 0, position: 'relative' },
  center: { display: 'flex', justifyContent: 'center', alignItems: 'center', flex: 1 },
  warnings: { maxWidth: '360px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

/** The speed-dial's entries (spec 02), plus the message and condition nodes the engine also runs. */
const SPEED_DIAL: FlowNodeType[] = ['start', 'singleBlock', 'message', 'menu', 'randomizer', 'interval', 'condition', 'ticket', 'typebot', 'openai', 'question'];

const nodeTypes = Object.fromEntries(FLOW_NODE_TYPES.map((type) => [type, FlowNodeCard]));

type DialogState = { type: FlowNodeType; id?: string } | null;

/** Nodes and edges as xyflow holds them (with their selection and measures) and as the document saves them. */
const toFlowNodes = (graph: CanvasGraph): Node[] => graph.nodes.map((n) => ({ ...n, deletable: n.id !== FLOW_START_NODE_ID }));
const toFlowEdges = (graph: CanvasGraph): Edge[] => graph.edges.map((e) => ({ ...e, sourceHandle: e.sourceHandle ?? undefined }));
const canvasOf = (nodes: Node[], edges: Edge[]): CanvasGraph => ({
  nodes: nodes as unknown as CanvasNode[],
  edges: edges.map((e) => ({ id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle ?? null })),
});

/** /flowbuilder/:id: 'Desenhe seu fluxo'. */
export default function FlowBuilderPage() {
  const { id } = useParams();
  const flowId = Number(id);
  const navigate = useNavigate();
  useEffect(() => {
    if (!(flowId > 0)) navigate('/flowbuilders', { replace: true });
  }, [flowId, navigate]);
  if (!(flowId > 0)) return null;
  return (
    <ReactFlowProvider>
      <FlowEditor key={flowId} flowId={flowId} />
    </ReactFlowProvider>
  );
}

function warningText(w: FlowWarning, label: (id: string) => string, t: (k: string, v?: Record<string, unknown>) => string) {
  return 'nodeId' in w ? t(`warnings.${w.kind}`, { node: label(w.nodeId), output: 'handle' in w ? w.handle : '' }) : t(`warnings.${w.kind}`);
}

function FlowEditor({ flowId }: { flowId: number }) {
  const styles = useStyles();
  const { t } = useTranslation('flowbuilder');
  const doc = useQuery(flowDocumentKey(flowId), () => flowsApi.document(flowId));
  // Nodes and edges in one state: an edit of the graph changes both at once.
  const [flow, setFlow] = useState<{ nodes: Node[]; edges: Edge[] } | null>(null);
  const nodes = flow?.nodes ?? null;
  const edges = flow?.edges ?? [];
  const [saved, setSaved] = useState<CanvasGraph | null>(null);
  const [restored, setRestored] = useState(false);
  const [saving, setSaving] = useState(false);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [testing, setTesting] = useState(false);
  const [path, setPath] = useState<{ nodes: Set<string>; waitingAt: string | null }>({ nodes: new Set(), waitingAt: null });
  const version = useRef(0);

  // Once loaded: the saved canvas, or the draft of edits not saved over it.
  useEffect(() => {
    if (!doc.data || flow) return;
    const stored = fromDocument(doc.data.flow.flow);
    version.current = doc.data.flow.version;
    const draft = loadDraft(flowId);
    const useDraft = !!draft && !sameDocument(draft.graph, stored);
    const graph = useDraft ? draft.graph : stored;
    setSaved(stored);
    setFlow({ nodes: toFlowNodes(graph), edges: toFlowEdges(graph) });
    setRestored(useDraft);
    storeVariables(stored);
  }, [doc.data, flowId, flow]);

  const graph = useMemo(() => (flow ? canvasOf(flow.nodes, flow.edges) : null), [flow]);
  const dirty = useMemo(() => !!graph && !!saved && !sameDocument(graph, saved), [graph, saved]);
  // Leaving through the app's own links or buttons with unsaved edits asks first (leave-guard.tsx).
  const guard = useLeaveGuard(dirty);

  // Every change is kept as a draft until saved: leaving, reloading or a crash lose nothing.
  useEffect(() => {
    if (!graph) return;
    if (dirty) saveDraft(flowId, version.current, graph);
    else dropDraft(flowId);
  }, [graph, dirty, flowId]);

  // Closing or reloading the tab with unsaved edits asks first (the draft keeps them either way).
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const setGraph = useCallback((change: (g: CanvasGraph) => CanvasGraph) => {
    setFlow((f) => {
      if (!f) return f;
      const next = change(canvasOf(f.nodes, f.edges));
      // xyflow's own fields (selection, measures) stay on the nodes that remain.
      const byId = new Map(f.nodes.map((n) => [n.id, n]));
      return {
        nodes: next.nodes.map((n) => ({ ...(byId.get(n.id) ?? {}), ...n, deletable: n.id !== FLOW_START_NODE_ID }) as Node),
        edges: toFlowEdges(next),
      };
    });
  }, []);

  const onNodesChange = useCallback((changes: NodeChange[]) => setFlow((f) => f && { ...f, nodes: applyNodeChanges(changes, f.nodes) }), []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => setFlow((f) => f && { ...f, edges: applyEdgeChanges(changes, f.edges) }), []);
  const onConnect = useCallback(
    (c: Connection) =>
      setFlow((f) => {
        if (!f) return f;
        // One connection per output: a new one from the same output replaces the old.
        const kept = f.edges.filter((e) => !(e.source === c.source && edgeHandle(e) === edgeHandle(c)));
        return { ...f, edges: addEdge({ ...c, id: `e-${c.source}-${c.sourceHandle ?? 'a'}-${c.target}` }, kept) };
      }),
    [],
  );
  const isValidConnection = useCallback((c: Connection | Edge) => c.source !== c.target && c.target !== FLOW_START_NODE_ID, []);

  const actions: CanvasActions = useMemo(
    () => ({
      duplicate: (id) => setGraph((g) => duplicateNode(g, id)),
      remove: (id) => setGraph((g) => removeNodes(g, [id])),
      edit: (id) => {
        const node = nodes?.find((n) => n.id === id);
        if (node && (DIALOG_TYPES.includes(node.type as FlowNodeType) || MEDIA_TYPES.includes(node.type as string) || node.type === 'singleBlock')) {
          setDialog({ type: node.type as FlowNodeType, id });
        }
      },
      path: path.nodes,
      waitingAt: path.waitingAt,
      warned: new Set<string>(),
    }),
    [nodes, path, setGraph],
  );

  const warnings = useMemo(() => (graph ? flowWarnings(toDocument(graph) as FlowGraph) : []), [graph]);
  actions.warned = new Set(warnings.flatMap((w) => ('nodeId' in w ? [w.nodeId] : [])));
  const label = (id: string) => {
    const node = nodes?.find((n) => n.id === id);
    return node ? t(`types.${node.type}`) + (id === FLOW_START_NODE_ID ? '' : ` ${id.slice(0, 4)}`) : id;
  };

  const add = (type: FlowNodeType) => {
    if (type === 'start') setGraph((g) => addNode(g, 'start', defaultData('start')).graph);
    else setDialog({ type });
  };

  const applyDialog = (data: Record<string, unknown>) => {
    if (!dialog) return;
    const { type, id } = dialog;
    if (id) setGraph((g) => ({ ...g, nodes: g.nodes.map((n) => (n.id === id ? { ...n, data } : n)) }));
    else setGraph((g) => addNode(g, type, data).graph);
    setDialog(null);
  };

  const save = async () => {
    if (!graph) return;
    setSaving(true);
    try {
      const result = await flowsApi.save(flowId, toDocument(graph));
      const stored = fromDocument(result.flow.flow);
      version.current = result.flow.version;
      setSaved(stored);
      // The canvas becomes what the server kept (keys, numbers and defaults as it reads them), so it is
      // not taken for unsaved edits; positions and selection stay as they are.
      setFlow((f) => {
        if (!f) return f;
        const data = new Map(stored.nodes.map((n) => [n.id, n.data]));
        return { nodes: f.nodes.map((n) => (data.has(n.id) ? { ...n, data: data.get(n.id)! } : n)), edges: f.edges };
      });
      setRestored(false);
      dropDraft(flowId);
      storeVariables(stored);
      queryClient.setQueryData(flowDocumentKey(flowId), result);
      void queryClient.invalidateQueries({ queryKey: [...FLOWS_KEY, 'page'] });
      toast.success(t('toasts.saved'));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  const discardDraft = () => {
    if (!saved) return;
    dropDraft(flowId);
    setFlow({ nodes: toFlowNodes(saved), edges: toFlowEdges(saved) });
    setRestored(false);
  };

  const editing = dialog?.id ? nodes?.find((n) => n.id === dialog.id) : undefined;
  return (
    <PageContainer className={styles.page}>
      <div className={styles.header}>
        <Button appearance="subtle" icon={<ArrowLeftRegular />} aria-label={t('back')} data-testid="flowbuilder-back" onClick={() => guard.leave('/flowbuilders')} />
        <Text as="h1" size={600} weight="semibold" className={styles.title}>
          {t('editorTitle')}
          {doc.data ? ` · ${doc.data.flow.name}` : ''}
        </Text>
        <Text className={styles.hint} data-testid="flowbuilder-hint">
          {dirty ? t('unsaved') : t('saveHint')}
        </Text>
        {warnings.length > 0 ? (
          <Popover withArrow>
            <PopoverTrigger disableButtonEnhancement>
              <Button appearance="subtle" icon={<WarningRegular />} data-testid="flowbuilder-warnings">
                <Badge appearance="filled" color="warning">
                  {warnings.length}
                </Badge>
              </Button>
            </PopoverTrigger>
            <PopoverSurface className={styles.warnings} data-testid="flowbuilder-warning-list">
              {warnings.map((w, i) => (
                <Text key={i}>{warningText(w, label, t)}</Text>
              ))}
            </PopoverSurface>
          </Popover>
        ) : null}
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <MenuButton icon={<AddRegular />} data-testid="flowbuilder-add" disabled={!nodes}>
              {t('add')}
            </MenuButton>
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              {SPEED_DIAL.map((type) => (
                <MenuItem key={type} data-testid={`flowbuilder-add-${type}`} onClick={() => add(type)}>
                  {t(`speedDial.${type}`)}
                </MenuItem>
              ))}
            </MenuList>
          </MenuPopover>
        </Menu>
        <Button icon={<BeakerRegular />} disabled={!nodes} data-testid="flowbuilder-test" onClick={() => setTesting((v) => !v)}>
          {t('test.open')}
        </Button>
        <Button
          appearance="primary"
          icon={saving ? <Spinner size="tiny" /> : <SaveRegular />}
          disabled={!nodes || saving}
          data-testid="flowbuilder-save"
          onClick={() => void save()}
        >
          {t('save')}
        </Button>
      </div>
      {restored ? (
        <MessageBar intent="info" data-testid="flowbuilder-draft">
          <MessageBarBody>{t('draftRestored')}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" data-testid="flowbuilder-discard-draft" onClick={discardDraft}>
              {t('discardDraft')}
            </Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      <div className={styles.body}>
        {!nodes ? (
          <div className={styles.center}>
            <Spinner label={t('loading')} data-testid="flowbuilder-loading" />
          </div>
        ) : (
          <div className={styles.canvas} data-testid="flowbuilder-canvas">
            <CanvasContext.Provider value={actions}>
              <ReactFlow
                nodes={nodes}
                edges={edges}
                nodeTypes={nodeTypes}
                onNodesChange={onNodesChange}
                onEdgesChange={onEdgesChange}
                onConnect={onConnect}
                isValidConnection={isValidConnection}
                deleteKeyCode={['Backspace', 'Delete']}
                zoomOnDoubleClick={false}
                fitView
                defaultEdgeOptions={{ style: { strokeWidth: 3 } }}
                proOptions={{ hideAttribution: true }}
              >
                <Background />
                <Controls showInteractive={false} />
              </ReactFlow>
            </CanvasContext.Provider>
          </div>
        )}
        {testing && graph ? (
          <TestPanel
            flowId={flowId}
            graph={graph}
            onPath={(p, waitingAt) => setPath({ nodes: new Set(p), waitingAt })}
            onClose={() => {
              setTesting(false);
              setPath({ nodes: new Set(), waitingAt: null });
            }}
          />
        ) : null}
      </div>
      <LeaveDialog open={!!guard.pending} onStay={guard.stay} onLeave={guard.go} />
      {dialog && MEDIA_TYPES.includes(dialog.type) && editing ? (
        <MediaDialog type={dialog.type as MediaNodeType} data={editing.data} onSubmit={applyDialog} onClose={() => setDialog(null)} />
      ) : dialog && dialog.type === 'singleBlock' ? (
        <ContentDialog data={editing?.data} onSubmit={applyDialog} onClose={() => setDialog(null)} />
      ) : dialog && DIALOG_TYPES.includes(dialog.type) ? (
        <NodeDialog type={dialog.type as DialogNodeType} data={editing?.data} onSubmit={applyDialog} onClose={() => setDialog(null)} />
      ) : null}
    </PageContainer>
  );
}
