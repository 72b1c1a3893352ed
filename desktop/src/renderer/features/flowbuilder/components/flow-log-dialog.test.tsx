import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FlowRunView } from '@atrium/shared';
import { fakeServer, renderWithProviders, signIn } from '../../../test/render';
import { FlowLogDialog } from './flow-log-dialog';

describe('the flow log of a ticket', () => {
  it('shows each run with its steps: node, outcome and why it stopped', async () => {
    const run: FlowRunView = {
      id: 5,
      flowId: 2,
      flowName: 'Atendimento',
      version: 3,
      trigger: 'phrase',
      status: 'handed',
      startedAt: '2026-11-27T10:00:00Z',
      endedAt: '2026-11-27T10:01:00Z',
      steps: [
        { nodeId: '1', nodeType: 'start', outcome: 'a', detail: null, at: '2026-11-27T10:00:00Z' },
        { nodeId: 'menuNode123', nodeType: 'menu', outcome: 'invalid', detail: '3 invalid answers and no "invalid" output', at: '2026-11-27T10:01:00Z' },
      ],
    };
    const calls = fakeServer((call) => (call.url === '/flowbuilder/log/42' ? { data: { runs: [run] } } : undefined));
    signIn({ profile: 'admin' });
    renderWithProviders(<FlowLogDialog ticketId={42} onClose={() => undefined} />);
    const shown = await screen.findByTestId('flow-log-run-5');
    expect(shown.textContent).toContain('Atendimento · v3 · phrase · A person takes over.');
    expect(shown.textContent).toContain('Menu menuNo → invalid (3 invalid answers and no "invalid" output)');
    expect(calls.map((c) => c.url)).toContain('/flowbuilder/log/42');
  });
});
