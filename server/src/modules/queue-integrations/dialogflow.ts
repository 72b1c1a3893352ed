import dialogflow from '@google-cloud/dialogflow';
import type { IntegrationsConfig } from '../../config.js';

/**
 * Dialogflow ES detectIntent through Google's own client library (research/automation-anchors.md 3d): the
 * service account's credentials are handed over in memory (never written to a file or logged), over the
 * library's REST transport (`fallback: 'rest'`), at DIALOGFLOW_API_ENDPOINT when set (tests point it at a
 * local server speaking the same REST shape). One session per ticket; a client per call.
 */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
  project_id?: string;
}

/** The service-account key as Google issues it (JSON with client_email and private_key), or null. */
export const readServiceAccount = (json: string): ServiceAccount | null => {
  try {
    const parsed = JSON.parse(json) as Partial<ServiceAccount>;
    if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') return null;
    if (!parsed.private_key.includes('PRIVATE KEY')) return null;
    return { client_email: parsed.client_email, private_key: parsed.private_key, project_id: typeof parsed.project_id === 'string' ? parsed.project_id : undefined };
  } catch {
    return null;
  }
};

export interface DialogflowAnswer {
  texts: string[];
  /** The intent ends the interaction: a person takes over. */
  end: boolean;
}

export const detectIntent = async (
  input: { account: ServiceAccount; projectId: string; sessionId: string; text: string; languageCode: string },
  options: { endpoint?: IntegrationsConfig['dialogflowEndpoint']; timeoutMs: number },
): Promise<DialogflowAnswer> => {
  const client = new dialogflow.SessionsClient({
    credentials: { client_email: input.account.client_email, private_key: input.account.private_key },
    projectId: input.projectId,
    fallback: 'rest',
    ...(options.endpoint ? { apiEndpoint: options.endpoint.host, port: options.endpoint.port, protocol: options.endpoint.protocol } : {}),
  });
  try {
    const [response] = await client.detectIntent(
      {
        session: client.projectAgentSessionPath(input.projectId, input.sessionId),
        queryInput: { text: { text: input.text.slice(0, 256), languageCode: input.languageCode } },
      },
      { timeout: options.timeoutMs, retry: null },
    );
    const result = response.queryResult;
    const texts = (result?.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).filter((t): t is string => !!t && t.trim() !== '');
    if (texts.length === 0 && result?.fulfillmentText) texts.push(result.fulfillmentText);
    const diagnostic = result?.diagnosticInfo?.fields?.end_conversation?.boolValue === true;
    return { texts, end: result?.intent?.endInteraction === true || diagnostic };
  } finally {
    await client.close().catch(() => undefined);
  }
};
