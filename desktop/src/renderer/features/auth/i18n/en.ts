/** Strings of the auth feature (namespace 'auth'). */
const en = {
  login: {
    title: 'Log in',
    subtitle: 'Welcome back! Enter your details to continue.',
    email: 'Email',
    password: 'Password',
    submit: 'Log in',
    forgot: 'Forgot your password?',
    noAccount: 'Don’t have an account?',
    signup: 'Sign up',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
  },
  signup: {
    title: 'Create your account',
    subtitle: 'Try it free for 3 days.',
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    password: 'Password',
    plan: 'Plan',
    choosePlan: 'Choose a plan',
    planOption: '{{name}} – Users: {{users}} – WhatsApp: {{connections}} – Queues: {{queues}} – {{value}}',
    submit: 'Sign up',
    haveAccount: 'Already have an account?',
    login: 'Log in',
    success: 'Your account has been created. Log in to continue.',
    plansError: 'Could not load the plans.',
  },
  server: {
    button: 'Server',
    title: 'Server address',
    label: 'Server',
    hint: 'The address of your Atrium server, for example https://desk.example.com',
    invalid: 'Enter an http(s) address such as https://desk.example.com',
  },
  forgot: {
    title: 'Reset password',
    backToLogin: 'Back to login',
    notConfigured: 'Password reset by email is not set up on this server yet. Ask an administrator of your company to set a new password for you (Users page).',
  },
};

export default en;
