import type { FluentIcon } from '@fluentui/react-icons';
import {
  Board20Regular,
  Bot20Regular,
  BranchFork20Regular,
  CalendarClock20Regular,
  Chat20Regular,
  ChatMultiple20Regular,
  Code20Regular,
  ContactCard20Regular,
  DataPie20Regular,
  DocumentMultiple20Regular,
  Flash20Regular,
  Flow20Regular,
  LayerDiagonal20Regular,
  List20Regular,
  Megaphone20Regular,
  MegaphoneLoud20Regular,
  Money20Regular,
  People20Regular,
  PeopleList20Regular,
  PhoneChat20Regular,
  PlugConnected20Regular,
  QuestionCircle20Regular,
  Settings20Regular,
  Tag20Regular,
  TaskListSquareLtr20Regular,
} from '@fluentui/react-icons';
import type { PlanFeature } from '@atrium/shared';
import type { PlanFlags } from '../api/types';

/** A badge a menu entry can carry; the side menu knows how to compute each. */
export type MenuBadge = 'connections' | 'chats';

export interface MenuItem {
  key: string;
  /** Route of the entry; a submenu has none. */
  to?: string;
  /** i18n key in the common namespace. */
  label: string;
  icon: FluentIcon;
  /** Shown to super users only. */
  superOnly?: boolean;
  /** Shown only when the company's plan has this flag. */
  plan?: PlanFeature;
  /** Shown only when the stored cshow flag exists (its routes exist only then). */
  cshow?: boolean;
  adminOnly?: boolean;
  badge?: MenuBadge;
  children?: MenuItem[];
}

export interface MenuSection {
  key: 'main' | 'admin';
  /** i18n key of the section header, if it has one. */
  title?: string;
  /** The whole section needs the admin profile (drawer-admin-items:view). */
  adminOnly?: boolean;
  items: MenuItem[];
}

/** The side menu of spec 01 section 2, in order. */
export const MENU: MenuSection[] = [
  {
    key: 'main',
    items: [
      { key: 'dashboard', to: '/', label: 'menu.dashboard', icon: DataPie20Regular, adminOnly: true },
      { key: 'tickets', to: '/tickets', label: 'menu.tickets', icon: ChatMultiple20Regular },
      { key: 'kanban', to: '/kanban', label: 'menu.kanban', icon: Board20Regular, plan: 'useKanban' },
      { key: 'quick-messages', to: '/quick-messages', label: 'menu.quickMessages', icon: Flash20Regular },
      { key: 'todolist', to: '/todolist', label: 'menu.todolist', icon: TaskListSquareLtr20Regular },
      { key: 'contacts', to: '/contacts', label: 'menu.contacts', icon: ContactCard20Regular },
      { key: 'schedules', to: '/schedules', label: 'menu.schedules', icon: CalendarClock20Regular },
      { key: 'tags', to: '/tags', label: 'menu.tags', icon: Tag20Regular },
      { key: 'chats', to: '/chats', label: 'menu.chats', icon: Chat20Regular, badge: 'chats', plan: 'useInternalChat' },
      { key: 'helps', to: '/helps', label: 'menu.helps', icon: QuestionCircle20Regular },
      {
        key: 'flows',
        label: 'menu.flows',
        icon: Flow20Regular,
        cshow: true,
        children: [
          { key: 'phrase-lists', to: '/phrase-lists', label: 'menu.phraseLists', icon: MegaphoneLoud20Regular, cshow: true },
          { key: 'flowbuilders', to: '/flowbuilders', label: 'menu.flowbuilders', icon: BranchFork20Regular, cshow: true },
        ],
      },
    ],
  },
  {
    key: 'admin',
    title: 'menu.administration',
    adminOnly: true,
    items: [
      {
        key: 'campaigns',
        label: 'menu.campaigns',
        icon: Megaphone20Regular,
        plan: 'useCampaigns',
        cshow: true,
        children: [
          { key: 'campaigns-list', to: '/campaigns', label: 'menu.campaignsList', icon: List20Regular, cshow: true },
          { key: 'contact-lists', to: '/contact-lists', label: 'menu.contactLists', icon: PeopleList20Regular, cshow: true },
          { key: 'campaigns-config', to: '/campaigns-config', label: 'menu.campaignsConfig', icon: Settings20Regular, cshow: true },
        ],
      },
      { key: 'announcements', to: '/announcements', label: 'menu.announcements', icon: MegaphoneLoud20Regular, superOnly: true },
      { key: 'prompts', to: '/prompts', label: 'menu.prompts', icon: Bot20Regular, plan: 'useOpenAi' },
      { key: 'queue-integration', to: '/queue-integration', label: 'menu.queueIntegration', icon: PlugConnected20Regular, plan: 'useIntegrations' },
      { key: 'connections', to: '/connections', label: 'menu.connections', icon: PhoneChat20Regular, badge: 'connections' },
      { key: 'files', to: '/files', label: 'menu.files', icon: DocumentMultiple20Regular },
      { key: 'queues', to: '/queues', label: 'menu.queues', icon: LayerDiagonal20Regular },
      { key: 'users', to: '/users', label: 'menu.users', icon: People20Regular },
      { key: 'messages-api', to: '/messages-api', label: 'menu.messagesApi', icon: Code20Regular, plan: 'useExternalApi' },
      { key: 'financeiro', to: '/financeiro', label: 'menu.financeiro', icon: Money20Regular },
      { key: 'settings', to: '/settings', label: 'menu.settings', icon: Settings20Regular },
    ],
  },
];

export interface MenuContext {
  profile: string | undefined;
  isSuper: boolean;
  /** Null while the plan is loading: plan-gated entries stay hidden. */
  plan: Partial<PlanFlags> | null;
  cshow: boolean;
}

const allowed = (item: MenuItem | MenuSection, ctx: MenuContext): boolean => {
  if (item.adminOnly && ctx.profile !== 'admin') return false;
  if ('superOnly' in item && item.superOnly && !ctx.isSuper) return false;
  if ('plan' in item && item.plan && !ctx.plan?.[item.plan]) return false;
  if ('cshow' in item && item.cshow && !ctx.cshow) return false;
  return true;
};

const filterItems = (items: MenuItem[], ctx: MenuContext): MenuItem[] =>
  items.flatMap((item) => {
    if (!allowed(item, ctx)) return [];
    if (!item.children) return [item];
    const children = filterItems(item.children, ctx);
    return children.length > 0 ? [{ ...item, children }] : [];
  });

/** The menu this user sees: role, super flag, plan flags and the cshow flag applied (spec 01 sections 2, 6). */
export const visibleMenu = (ctx: MenuContext, menu: MenuSection[] = MENU): MenuSection[] =>
  menu.flatMap((section) => {
    if (!allowed(section, ctx)) return [];
    const items = filterItems(section.items, ctx);
    return items.length > 0 ? [{ ...section, items }] : [];
  });

/** The entry whose route best matches a path (for the selected highlight). */
export const selectedMenuKey = (pathname: string, menu: MenuSection[] = MENU): string | undefined => {
  let best: { key: string; length: number } | undefined;
  const visit = (items: MenuItem[]) => {
    for (const item of items) {
      if (item.to) {
        const match = item.to === '/' ? pathname === '/' : pathname === item.to || pathname.startsWith(`${item.to}/`);
        if (match && (!best || item.to.length > best.length)) best = { key: item.key, length: item.to.length };
      }
      if (item.children) visit(item.children);
    }
  };
  menu.forEach((section) => visit(section.items));
  // Routes that belong to an entry without sharing its prefix.
  if (!best && pathname.startsWith('/campaign/')) return 'campaigns-list';
  if (!best && pathname.startsWith('/flowbuilder/')) return 'flowbuilders';
  return best?.key;
};
