/**
 * The error-code catalogue. Every API error answers `{"error": CODE}` with the status below;
 * the client translates the code. Spec 01 section 8 lists the product's codes; the rest are ours.
 */
export const ERROR_STATUS = {
  // Spec 01 section 8
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 409,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 409,
  ERR_WAPP_CHECK_CONTACT: 502,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 502,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 404,
  ERR_SENDING_WAPP_MSG: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 502,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,

  // Request handling
  ERR_VALIDATION: 400,
  ERR_INVALID_JSON: 400,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_NOT_FOUND: 404,
  ERR_CONFLICT: 409,
  ERR_TOO_MANY_REQUESTS: 429,
  // The access token is invalid or expired: the client refreshes once and retries (spec 01 section 4).
  ERR_INVALID_TOKEN: 403,
  ERR_INVALID_REFRESH_TOKEN: 401,
  ERR_SUBSCRIPTION_EXPIRED: 401,
  ERR_COMPANY_INACTIVE: 401,
  ERR_NO_SUPER: 403,
  ERR_PLAN_FEATURE_DISABLED: 403,

  // Companies, plans, users, settings, helps
  ERR_NO_COMPANY_FOUND: 404,
  ERR_COMPANY_NAME_ALREADY_EXISTS: 409,
  ERR_COMPANY_HAS_SUPER_USER: 409,
  ERR_NO_PLAN_FOUND: 404,
  ERR_PLAN_NAME_ALREADY_EXISTS: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_CANNOT_DELETE_SELF: 409,
  ERR_USER_LIMIT_REACHED: 409,
  ERR_CONNECTION_LIMIT_REACHED: 409,
  ERR_QUEUE_LIMIT_REACHED: 409,
  ERR_INVALID_SETTING_VALUE: 400,
  ERR_NO_HELP_FOUND: 404,

  // Conversations
  ERR_TICKET_CLOSED: 409,
  ERR_TICKET_OTHER_AGENT: 403,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_NO_QUEUE_OPTION_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_MESSAGE_EMPTY: 400,
  ERR_WAPP_NAME_ALREADY_EXISTS: 409,
  ERR_WAPP_HAS_OPEN_TICKETS: 409,
  ERR_WAPP_PROVIDER_DISABLED: 400,

  // Tags, ticket notes, quick messages
  ERR_NO_TAG_FOUND: 404,
  ERR_TAG_ALREADY_EXISTS: 409,
  ERR_NO_TICKET_NOTE_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,

  // Billing
  ERR_NO_INVOICE_FOUND: 404,
  ERR_INVOICE_NOT_OPEN: 409,
  ERR_NO_PAYMENT_FOUND: 404,
  ERR_PAYMENT_PROVIDER_DISABLED: 503,
  ERR_PAYMENT_PROVIDER_FAILED: 502,
  ERR_INVALID_WEBHOOK: 401,

  // Schedules
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_SCHEDULE_ALREADY_SENT: 409,

  // Announcements
  ERR_NO_ANNOUNCEMENT_FOUND: 404,

  // Password reset: a wrong, used or expired code (one answer for all three)
  ERR_INVALID_RESET_CODE: 400,
  // A new password that is one of the most used ones (server/src/modules/auth/passwords.ts)
  ERR_PASSWORD_TOO_COMMON: 400,

  // File lists
  ERR_NO_FILE_LIST_FOUND: 404,
  ERR_FILE_LIST_ALREADY_EXISTS: 409,
  ERR_NO_FILE_OPTION_FOUND: 404,

  // Internal chat
  ERR_NO_CHAT_FOUND: 404,

  // Flow builder and flow campaigns
  ERR_NO_FLOW_FOUND: 404,
  ERR_FLOW_NAME_ALREADY_EXISTS: 409,
  ERR_NO_FLOW_CAMPAIGN_FOUND: 404,
  // A phrase is unique per connection (compared without case, accents or extra spaces).
  ERR_FLOW_PHRASE_ALREADY_EXISTS: 409,
  // A flow's last saved canvas names the integration (a Typebot node) or the queue (a ticket node): deleting
  // it would break the flow silently. The body lists them: `flows: [{id, name}]`.
  ERR_INTEGRATION_USED_BY_FLOWS: 409,
  ERR_QUEUE_USED_BY_FLOWS: 409,

  // Outbox: why a message did not leave (shown on it)
  ERR_MEDIA_NOT_FOUND: 404,
  ERR_SEND_UNCERTAIN: 502,
  ERR_CANCELLED: 409,
  // WhatsApp answered one of our messages with an error receipt: it was not delivered.
  ERR_WAPP_SEND_REFUSED: 502,
  ERR_WAPP_ACCOUNT_RESTRICTED: 403,
  // Several server processes: the one running the connection's session did not answer in time.
  ERR_WAPP_OWNER_UNREACHABLE: 503,

  // Contact lists and campaigns
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  ERR_CONTACT_LIST_ITEM_DUPLICATED: 409,
  ERR_CONTACT_LIST_IN_USE: 409,
  ERR_IMPORT_RUNNING: 409,
  ERR_SPREADSHEET_UNREADABLE: 400,
  ERR_NO_CAMPAIGN_FOUND: 404,
  // PUT on a campaign that is running, finished or starts within the hour (spec 02 section 4).
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  // DELETE while it runs (spec 04 section 1).
  ERR_CAMPAIGN_RUNNING: 409,
  // Cancel or restart from a status that does not allow it.
  ERR_CAMPAIGN_STATUS: 409,
  // Scheduling a campaign without a connection, a list (or tag) or anything to send.
  ERR_CAMPAIGN_INCOMPLETE: 400,

  // Fetching a received media again (POST /messages/{id}/media)
  ERR_NO_MEDIA_TO_FETCH: 409,
  ERR_MEDIA_NOT_FAILED: 409,
  ERR_MEDIA_REFETCH_UNSUPPORTED: 409,

  // The external messages API (POST /api/messages/send)
  ERR_INVALID_API_TOKEN: 401,
  // The token's connection has no live session: nothing can be checked or sent now.
  ERR_WAPP_NOT_CONNECTED: 503,
  // Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): the first request with it is still running,
  ERR_IDEMPOTENCY_KEY_IN_USE: 409,
  // or it was used with another request body.
  ERR_IDEMPOTENCY_KEY_REUSED: 422,

  // AI prompts
  ERR_NO_PROMPT_FOUND: 404,
  ERR_PROMPT_IN_USE: 409,
  // The provider refused the API key (checked on save).
  ERR_AI_INVALID_API_KEY: 400,
  // The provider failed (quota, timeout, down) on an agent's request.
  ERR_AI_UNAVAILABLE: 502,
  // "Suggest a reply" / "Summarise" on a ticket whose queue has no prompt and no default prompt is set.
  ERR_AI_NO_PROMPT: 409,

  // Queue integrations
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_INTEGRATION_NAME_ALREADY_EXISTS: 409,
  ERR_INTEGRATION_IN_USE: 409,
  // The address is private or loopback (INTEGRATIONS_ALLOW_PRIVATE_NETWORK is off).
  ERR_INTEGRATION_URL_REFUSED: 400,
  // Dialogflow credentials that are not a service-account key.
  ERR_INTEGRATION_INVALID_CREDENTIALS: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);

/** One failing field of a validation error. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The body of every error response. */
export interface ErrorBody {
  error: ErrorCode;
  fields?: FieldIssue[];
  [extra: string]: unknown;
}
