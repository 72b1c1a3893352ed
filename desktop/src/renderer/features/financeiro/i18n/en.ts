/** Strings of the financeiro feature (namespace 'financeiro'): useTranslation('financeiro'). */
const en = {
  title: 'Billing',
  search: 'Search',
  empty: 'No invoices yet.',
  columns: {
    id: 'Id',
    detail: 'Detail',
    value: 'Value',
    dueDate: 'Due date',
    status: 'Status',
    actions: 'Actions',
  },
  status: {
    paid: 'Paid',
    expired: 'Expired',
    open: 'Open',
  },
  pay: 'Pay',
  paid: 'Paid',
};

export default en;
