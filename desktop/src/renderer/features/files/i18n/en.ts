/** Strings of the files feature (namespace 'files'): useTranslation('files'). */
const en = {
  title: 'File lists',
  search: 'Search file lists',
  add: 'Add',
  empty: 'No file lists yet',
  columns: { name: 'Name', actions: 'Actions' },
  fileCount_one: '{{count}} file',
  fileCount_other: '{{count}} files',
  dialog: {
    addTitle: 'Add file list',
    editTitle: 'Edit file list',
    name: 'Name',
    message: 'Message',
    options: 'Files',
    addOption: 'Add file',
    noOptions: 'No files in this list yet.',
    optionName: 'File name',
    optionNameRequired: 'Every file needs a name.',
    chooseFile: 'Choose file',
    replaceFile: 'Replace',
    removeFile: 'Remove the file',
    removeOption: 'Remove this entry',
    noFile: 'No file',
    uploading: 'Uploading… {{percent}}%',
  },
  invalidFile: 'This file type is not accepted, or it is over {{max}} MB.',
  toasts: { saved: 'File list saved.', deleted: 'File list deleted.' },
  confirmDelete: { title: 'Delete {{name}}?', body: 'The list and its files are removed. This cannot be undone.' },
};

export default en;
