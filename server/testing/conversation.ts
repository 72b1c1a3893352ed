import type { SandboxInboundInput } from '@atrium/shared';
import type { Api } from './helpers.js';

/** A connected sandbox connection of the admin's company. */
export const connectSandbox = async (api: Api, adminToken: string, name = `Sandbox ${Math.random().toString(36).slice(2, 8)}`) => {
  const created = await api.post('/whatsapp', { name, provider: 'sandbox' }, adminToken);
  if (created.status !== 201) throw new Error(`sandbox connection: ${created.status} ${JSON.stringify(created.body)}`);
  const scan = await api.post(`/sandbox/${created.body.id}/scan`, {}, adminToken);
  if (scan.status !== 200) throw new Error(`scan: ${scan.status} ${JSON.stringify(scan.body)}`);
  return { id: created.body.id as number, number: scan.body.number as string };
};

/** A customer writes to the sandbox phone. */
export const customerSays = async (
  api: Api,
  adminToken: string,
  whatsappId: number,
  message: SandboxInboundInput,
) => {
  const res = await api.post(`/sandbox/${whatsappId}/messages`, message, adminToken);
  if (res.status !== 201) throw new Error(`inbound: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
};

export const outbox = async (api: Api, adminToken: string, whatsappId: number) =>
  (await api.get(`/sandbox/${whatsappId}/outbox`, adminToken)).body.messages as {
    id: string;
    to: string;
    body: string;
    mediaType?: string;
    mediaName?: string;
    quotedId?: string;
    deleted?: boolean;
  }[];

/** Waits until the sandbox phone has received our message `wid` (the outbox sends after the request answers). */
export const delivered = async (api: Api, adminToken: string, whatsappId: number, wid: string) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await outbox(api, adminToken, whatsappId)).find((m) => m.id === wid);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`message ${wid} never reached the phone`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** Waits until the sandbox phone has received `count` messages in all, and answers them. */
export const outboxOf = async (api: Api, adminToken: string, whatsappId: number, count: number) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const messages = await outbox(api, adminToken, whatsappId);
    if (messages.length >= count) return messages;
    if (Date.now() > deadline) throw new Error(`the phone received ${messages.length} messages, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** The company's ticket for a customer number (any status), as an admin sees it. */
export const ticketOf = async (api: Api, adminToken: string, number: string, status?: string) => {
  const res = await api.get(`/tickets?showAll=true${status ? `&status=${status}` : ''}&searchParam=${number}`, adminToken);
  return (res.body.tickets as any[]).find((t) => t.contact?.number === number);
};
