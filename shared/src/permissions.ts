/** Profiles and the permission rule keys of spec 01 section 6. No dynamic rules exist. */
export const PROFILES = ['user', 'admin'] as const;
export type Profile = (typeof PROFILES)[number];

export const RULES = {
  user: [] as string[],
  admin: [
    'dashboard:view',
    'drawer-admin-items:view',
    'tickets-manager:showall',
    'user-modal:editProfile',
    'user-modal:editQueues',
    'ticket-options:deleteTicket',
    'contacts-page:deleteContact',
    'connections-page:actionButtons',
    'connections-page:addConnection',
    'connections-page:editOrDeleteConnection',
  ],
} as const satisfies Record<Profile, readonly string[]>;

export type RuleKey = (typeof RULES)['admin'][number];

export const can = (profile: Profile | string | undefined, rule: RuleKey): boolean =>
  profile === 'admin' && (RULES.admin as readonly string[]).includes(rule);
