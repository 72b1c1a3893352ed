import { useState } from 'react';
import { Button, Input, makeStyles, mergeClasses, tokens, Text } from '@fluentui/react-components';
import { ArrowResetRegular, DismissRegular, SendRegular, TimerRegular } from '@fluentui/react-icons';
import type { FlowTestResult } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { flowsApi } from '../api/flows';
import { toDocument, type CanvasGraph } from '../lib/graph';

/**
 * The canvas's test panel: the admin types as a customer and the real engine answers on the server with
 * a throw-away conversation (POST /flowbuilder/test: nothing is sent, stored or scheduled; Typebot and
 * OpenAI nodes are really called and answer here). It tests the canvas as drawn, saved or not; the nodes
 * passed are lit on the canvas (`onPath`).
 */
interface Line {
  from: 'customer' | 'flow' | 'system';
  text: string;
  /** A file the flow sends, played or shown as the customer would see it. */
  media?: { type: 'image' | 'audio' | 'video'; url: string };
}

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    width: '320px',
    maxWidth: '100%',
    borderLeft: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: tokens.spacingHorizontalS },
  title: { flex: 1, fontWeight: tokens.fontWeightSemibold },
  lines: { flex: 1, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, padding: tokens.spacingHorizontalS },
  line: { maxWidth: '85%', padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`, borderRadius: tokens.borderRadiusMedium, whiteSpace: 'pre-wrap' },
  media: { display: 'block', maxWidth: '100%', marginBottom: tokens.spacingVerticalXXS },
  customer: { alignSelf: 'flex-end', backgroundColor: tokens.colorBrandBackground2 },
  flow: { alignSelf: 'flex-start', backgroundColor: tokens.colorNeutralBackground1 },
  system: { alignSelf: 'center', color: tokens.colorNeutralForeground3, fontStyle: 'italic', fontSize: tokens.fontSizeBase200 },
  footer: { display: 'flex', gap: tokens.spacingHorizontalXS, padding: tokens.spacingHorizontalS },
});

export interface TestPanelProps {
  flowId: number;
  graph: CanvasGraph;
  onPath: (path: string[], waitingAt: string | null) => void;
  onClose: () => void;
}

export function TestPanel({ flowId, graph, onPath, onClose }: TestPanelProps) {
  const styles = useStyles();
  const { t } = useTranslation('flowbuilder');
  const [lines, setLines] = useState<Line[]>([]);
  const [session, setSession] = useState<unknown>(null);
  const [last, setLast] = useState<FlowTestResult | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [path, setPath] = useState<string[]>([]);

  const linesOf = (result: FlowTestResult): Line[] =>
    result.replies.map((r): Line => {
      switch (r.kind) {
        case 'text':
          return { from: 'flow', text: r.body };
        case 'media': {
          // A spoken answer says what it says beside the player; a file is named by its kind.
          const text = r.text !== undefined ? t('test.voiceNote', { text: r.text }) : t('test.media', { type: t(`test.mediaTypes.${r.mediaType}`) });
          return { from: 'flow', text, media: r.url ? { type: r.mediaType, url: r.url } : undefined };
        }
        case 'pause':
          return { from: 'system', text: t('test.pause', { seconds: r.seconds }) };
        case 'ticket':
          return { from: 'system', text: t('test.ticket', { queue: r.queueName ?? r.queueId }) };
        case 'handoff':
          return { from: 'system', text: t('test.handoff', { to: r.to }) };
      }
    });

  const send = async (event: 'start' | 'message' | 'timeout', body = '') => {
    setBusy(true);
    try {
      const result = await flowsApi.test({ flowId, graph: toDocument(graph), event, body, session: event === 'start' ? undefined : session });
      const before = event === 'start' ? [] : path;
      const nextPath = [...before, ...result.path.map((p) => p.nodeId)];
      setPath(nextPath);
      onPath(nextPath, result.waiting?.nodeId ?? null);
      setSession(result.session);
      setLast(result);
      const ended = result.status === 'waiting' ? [] : [{ from: 'system' as const, text: t(`test.status.${result.status}`) }];
      setLines((old) => [...(event === 'start' ? [] : old), ...(body ? [{ from: 'customer' as const, text: body }] : []), ...linesOf(result), ...ended]);
    } finally {
      setBusy(false);
    }
  };

  const waiting = last?.status === 'waiting' && !!last.waiting;
  return (
    <aside className={styles.panel} data-testid="flow-test-panel" aria-label={t('test.title')}>
      <div className={styles.header}>
        <Text className={styles.title}>{t('test.title')}</Text>
        <Button size="small" icon={<ArrowResetRegular />} disabled={busy} data-testid="flow-test-start" onClick={() => void send('start')}>
          {t(last ? 'test.restart' : 'test.start')}
        </Button>
        <Button size="small" appearance="subtle" icon={<DismissRegular />} aria-label={t('test.close')} onClick={onClose} />
      </div>
      <div className={styles.lines} data-testid="flow-test-lines" aria-live="polite">
        {lines.map((line, i) => (
          <div key={i} className={mergeClasses(styles.line, styles[line.from])} data-testid={`flow-test-line-${line.from}`}>
            {line.media?.type === 'audio' && <audio className={styles.media} controls preload="metadata" src={line.media.url} data-testid="flow-test-audio" />}
            {line.media?.type === 'image' && <img className={styles.media} src={line.media.url} alt="" data-testid="flow-test-image" />}
            {line.media?.type === 'video' && <video className={styles.media} controls preload="metadata" src={line.media.url} data-testid="flow-test-video" />}
            {line.text}
          </div>
        ))}
      </div>
      <form
        className={styles.footer}
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim() || !waiting) return;
          const body = text;
          setText('');
          void send('message', body);
        }}
      >
        <Input
          style={{ flex: 1, minWidth: 0 }}
          value={text}
          disabled={!waiting || busy}
          placeholder={t('test.placeholder')}
          data-testid="flow-test-input"
          onChange={(_, d) => setText(d.value)}
        />
        <Button type="submit" icon={<SendRegular />} disabled={!waiting || busy} aria-label={t('test.send')} data-testid="flow-test-send" />
        <Button
          icon={<TimerRegular />}
          disabled={!waiting || busy || !!last?.waiting?.to}
          aria-label={t('test.noReply')}
          title={t('test.noReply')}
          data-testid="flow-test-timeout"
          onClick={() => void send('timeout')}
        />
      </form>
    </aside>
  );
}
