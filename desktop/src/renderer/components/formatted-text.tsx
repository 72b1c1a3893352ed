import type { ReactNode } from 'react';
import { parseWhatsApp, type FormatNode } from './whatsapp-format';

const render = (nodes: FormatNode[], key = ''): ReactNode[] =>
  nodes.map((node, i) => {
    if (typeof node === 'string') return node;
    const k = `${key}${i}`;
    const children = render(node.children, `${k}.`);
    switch (node.kind) {
      case 'bold':
        return <strong key={k}>{children}</strong>;
      case 'italic':
        return <em key={k}>{children}</em>;
      case 'strike':
        return <s key={k}>{children}</s>;
      case 'mono':
        return (
          <code key={k} style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.95em' }}>
            {children}
          </code>
        );
    }
  });

/** Text with WhatsApp's formatting shown as WhatsApp shows it. */
export function FormattedText({ text }: { text: string }) {
  return <>{render(parseWhatsApp(text))}</>;
}
