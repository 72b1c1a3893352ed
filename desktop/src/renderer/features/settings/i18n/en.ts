/** Strings of the settings feature (namespace 'settings'): useTranslation('settings'). */
const en = {
  title: 'Settings',
  tabs: { options: 'Options', schedules: 'Schedules', companies: 'Companies', plans: 'Plans', helps: 'Help' },
  options: {
    userRating: 'Ratings',
    scheduleType: 'Office hours management',
    call: 'Accept calls',
    CheckMsgIsGroup: 'Ignore group messages',
    sendGreetingAccepted: 'Send greeting when a ticket is accepted',
    sendMsgTransfTicket: 'Send message when a ticket is transferred',
    sendGreetingMessageOneQueues: 'Send greeting when there is only one queue',
    chatBotType: 'Chatbot type',
    campaignsEnabled: 'Campaigns',
    asaas: 'Payment provider token',
    saveToken: 'Save token',
  },
  values: {
    enabled: 'Enabled',
    disabled: 'Disabled',
    company: 'Company',
    queue: 'Queue',
    text: 'Text',
    button: 'Button',
    list: 'List',
    true: 'Enabled',
    false: 'Disabled',
  },
  schedules: {
    weekday: 'Weekday',
    start: 'Start',
    end: 'End',
    save: 'Save schedules',
    days: {
      monday: 'Monday',
      tuesday: 'Tuesday',
      wednesday: 'Wednesday',
      thursday: 'Thursday',
      friday: 'Friday',
      saturday: 'Saturday',
      sunday: 'Sunday',
    },
  },
  placeholder: 'This section is being built.',
  toasts: { updated: 'Settings updated successfully.', schedulesUpdated: 'Schedules updated successfully.' },
};

export default en;
