/** Strings of the announcements feature (namespace 'announcements'): useTranslation('announcements'). */
const en = {
  title: 'Announcements',
  search: 'Search',
  add: 'Add announcement',
  empty: 'No announcements yet.',
  superOnly: 'Only super users can manage announcements.',
  noMedia: 'No attachment',
  columns: { title: 'Title', priority: 'Priority', mediaName: 'Attachment', status: 'Status', actions: 'Actions' },
  priorities: { high: 'High', medium: 'Medium', low: 'Low' },
  status: { active: 'Active', inactive: 'Inactive' },
  modal: { addTitle: 'New announcement', editTitle: 'Edit announcement' },
  fields: {
    title: 'Title',
    text: 'Text',
    priority: 'Priority',
    attachment: 'Image (png, jpg, jpeg)',
    attach: 'Attach image',
    removeAttachment: 'Remove image',
  },
  invalidFile: 'Choose a png, jpg or jpeg image of at most {{max}} MB.',
  confirmDelete: { title: 'Delete "{{title}}"?', body: 'The announcement disappears for every company. This cannot be undone.' },
  toasts: { saved: 'Announcement saved successfully.', deleted: 'Announcement deleted successfully.' },
  bell: { empty: 'No announcements.', hasImage: 'Has an image' },
};

export default en;
