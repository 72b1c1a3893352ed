import { describe, expect, it } from 'vitest';
import { MENU, selectedMenuKey, visibleMenu, type MenuContext, type MenuSection } from './menu';

const ALL_FLAGS = {
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};

const keys = (sections: MenuSection[]): string[] =>
  sections.flatMap((s) => s.items.flatMap((i) => [i.key, ...(i.children ?? []).map((c) => c.key)]));

const ctx = (overrides: Partial<MenuContext> = {}): MenuContext => ({
  profile: 'admin',
  isSuper: false,
  plan: ALL_FLAGS,
  cshow: false,
  ...overrides,
});

describe('visibleMenu', () => {
  it('gives an agent the attendance entries and no admin section or dashboard', () => {
    const menu = visibleMenu(ctx({ profile: 'user' }));
    expect(menu.map((s) => s.key)).toEqual(['main']);
    expect(keys(menu)).toEqual(['tickets', 'kanban', 'quick-messages', 'todolist', 'contacts', 'schedules', 'tags', 'chats', 'helps']);
  });

  it('gives an admin the dashboard and the admin section, in the spec’s order', () => {
    const menu = visibleMenu(ctx());
    expect(keys(menu)[0]).toBe('dashboard');
    const admin = menu.find((s) => s.key === 'admin');
    expect(admin?.title).toBe('menu.administration');
    expect(admin?.items.map((i) => i.key)).toEqual([
      'prompts',
      'queue-integration',
      'connections',
      'files',
      'queues',
      'users',
      'messages-api',
      'financeiro',
      'settings',
    ]);
  });

  it('hides each plan-gated entry when its flag is off', () => {
    const cases = [
      ['useKanban', 'kanban'],
      ['useOpenAi', 'prompts'],
      ['useIntegrations', 'queue-integration'],
      ['useExternalApi', 'messages-api'],
    ] as const;
    for (const [flag, key] of cases) {
      expect(keys(visibleMenu(ctx({ plan: ALL_FLAGS })))).toContain(key);
      expect(keys(visibleMenu(ctx({ plan: { ...ALL_FLAGS, [flag]: false } })))).not.toContain(key);
    }
  });

  it('hides plan-gated entries while the plan is unknown', () => {
    const shown = keys(visibleMenu(ctx({ plan: null, cshow: true })));
    for (const key of ['kanban', 'prompts', 'queue-integration', 'messages-api', 'campaigns']) expect(shown).not.toContain(key);
    expect(shown).toContain('users');
  });

  it('shows announcements to super users only', () => {
    expect(keys(visibleMenu(ctx()))).not.toContain('announcements');
    expect(keys(visibleMenu(ctx({ isSuper: true })))).toContain('announcements');
  });

  it('shows the campaign submenu only with cshow, the campaigns plan flag and the admin profile', () => {
    const campaignKeys = ['campaigns', 'campaigns-list', 'contact-lists', 'campaigns-config'];
    expect(keys(visibleMenu(ctx({ cshow: true })))).toEqual(expect.arrayContaining(campaignKeys));
    expect(keys(visibleMenu(ctx({ cshow: false })))).not.toContain('campaigns');
    expect(keys(visibleMenu(ctx({ cshow: true, plan: { ...ALL_FLAGS, useCampaigns: false } })))).not.toContain('campaigns');
    expect(keys(visibleMenu(ctx({ cshow: true, profile: 'user' })))).not.toContain('campaigns');
  });

  it('shows the flows submenu with cshow, to agents too', () => {
    expect(keys(visibleMenu(ctx({ profile: 'user', cshow: true })))).toEqual(
      expect.arrayContaining(['flows', 'phrase-lists', 'flowbuilders']),
    );
    expect(keys(visibleMenu(ctx({ profile: 'user', cshow: false })))).not.toContain('flows');
  });

  it('drops a submenu whose children are all hidden', () => {
    const menu: MenuSection[] = [
      {
        key: 'main',
        items: [{ key: 'parent', label: 'x', icon: MENU[0].items[0].icon, children: [{ key: 'child', to: '/c', label: 'c', icon: MENU[0].items[0].icon, cshow: true }] }],
      },
    ];
    expect(visibleMenu(ctx({ cshow: false }), menu)).toEqual([]);
    expect(keys(visibleMenu(ctx({ cshow: true }), menu))).toEqual(['parent', 'child']);
  });

  it('has an entry for every menu route of spec 01 section 2', () => {
    const routes = MENU.flatMap((s) => s.items.flatMap((i) => [i.to, ...(i.children ?? []).map((c) => c.to)])).filter(Boolean);
    expect(routes.sort()).toEqual(
      [
        '/', '/tickets', '/kanban', '/quick-messages', '/todolist', '/contacts', '/schedules', '/tags', '/helps', '/chats',
        '/campaigns', '/contact-lists', '/campaigns-config', '/phrase-lists', '/flowbuilders', '/announcements', '/prompts',
        '/queue-integration', '/messages-api', '/connections', '/files', '/queues', '/users', '/financeiro', '/settings',
      ].sort(),
    );
  });
});

describe('selectedMenuKey', () => {
  it('matches the entry of the current path, nested paths included', () => {
    expect(selectedMenuKey('/')).toBe('dashboard');
    expect(selectedMenuKey('/tickets')).toBe('tickets');
    expect(selectedMenuKey('/tickets/abc')).toBe('tickets');
    expect(selectedMenuKey('/contact-lists/3/contacts')).toBe('contact-lists');
    expect(selectedMenuKey('/campaign/3/report')).toBe('campaigns-list');
    expect(selectedMenuKey('/flowbuilder/9')).toBe('flowbuilders');
    expect(selectedMenuKey('/contacts')).toBe('contacts');
  });
});
